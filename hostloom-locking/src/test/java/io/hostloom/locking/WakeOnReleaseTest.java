package io.hostloom.locking;

import static io.hostloom.locking.KernelFixture.failure;
import static io.hostloom.locking.KernelFixture.lease;
import static io.hostloom.locking.KernelFixture.opts;
import static io.hostloom.locking.KernelFixture.value;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.testing.ForwardingLockBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Wake on release: a refused attempt's retry wait ends when the backend's {@link ReleaseSignal}
 * fires, bounded by the policy's delay and {@code maxWait}; polling stays the fallback. The lock
 * sees recorder → faults → memory for lock commands and the in-memory backend (or a test-driven
 * signal) for release signals.
 */
class WakeOnReleaseTest {
  private final KernelFixture fx = new KernelFixture();

  private static Duration ms(long ms) {
    return Duration.ofMillis(ms);
  }

  private static final LockOptions LINEAR_50 =
      opts().retry(LockRetryPolicy.linear(10, ms(50))).build();

  /** Another lock instance holds {@code key} for a minute. */
  private LockHandle holdElsewhere(String key) {
    return fx.lock().tryAcquire(key, lease(Duration.ofMinutes(1))).orElseThrow();
  }

  @Test
  void aWaiterIsGrantedAtTheInstantOfTheHoldersRelease() {
    SignallingBackend sb = new SignallingBackend(fx.backend, fx.memory);
    DistributedLock lock = fx.lock(b -> b, sb);
    LockHandle holder = holdElsewhere("k");
    CompletableFuture<LockHandle> f = lock.acquireAsync("k", LINEAR_50);
    assertThat(f).isNotDone();
    assertThat(fx.memory.waiterCount()).isEqualTo(1);

    fx.clock.advance(ms(20));
    holder.close();
    fx.clock.runDueTasks(); // the wake-up hops to the clock's timer thread, still at 20 ms

    LockHandle h = value(f);
    // the holder, the waiter's unsubscribed first attempt and its re-check once subscribed (both
    // refused at 0 ms), the woken attempt at 20 ms
    assertThat(fx.backend.times("acquire")).containsExactly(ms(0), ms(0), ms(0), ms(20));
    assertThat(h.leaseEnd()).isEqualTo(fx.clock.instant().plus(LockingOptions.DEFAULT_LEASE));
    assertThat(fx.events.matching("acquire:"))
        .containsExactly("acquire:ACQUIRED:1", "acquire:ACQUIRED:3");
    // the re-check's subscription was woken; the woken attempt subscribed before it was sent and
    // ended it (completed false) on the grant
    assertThat(sb.subscriptions).hasSize(2);
    assertThat(sb.subscriptions.get(0)).isCompletedWithValue(true);
    assertThat(sb.subscriptions.get(1)).as("ended by the lock").isCompletedWithValue(false);
    assertThat(fx.memory.waiterCount()).isZero();
    assertThat(fx.clock.pendingTimers()).as("only the new handle's lease timer").isEqualTo(1);
    h.close();
    assertThat(fx.clock.pendingTimers()).isZero();
  }

  @Test
  void withoutTheSignalTheWaiterWaitsTheWholeStep() {
    SignallingBackend sb = new SignallingBackend(fx.backend, fx.memory);
    DistributedLock switchedOff = fx.lock(b -> b.wakeOnRelease(false), sb);
    DistributedLock noCapability = fx.lock(b -> b, fx.backend);
    for (DistributedLock lock : List.of(switchedOff, noCapability)) {
      int before = fx.backend.calls("acquire").size();
      Duration t0 = fx.clock.elapsed();
      LockHandle holder = holdElsewhere("k");
      CompletableFuture<LockHandle> f = lock.acquireAsync("k", LINEAR_50);
      fx.clock.advance(ms(20));
      holder.close();
      fx.clock.runDueTasks();
      assertThat(f).isNotDone();
      fx.clock.advance(ms(30)); // the poll at the end of the 50 ms step
      value(f).close();
      assertThat(fx.backend.times("acquire").subList(before, before + 3))
          .containsExactly(t0, t0, t0.plus(ms(50)));
    }
    assertThat(sb.subscriptions).isEmpty();
    assertThat(fx.memory.waiterCount()).isZero();
    assertThat(fx.clock.pendingTimers()).isZero();
  }

  @Test
  void statementTwentyTwoArithmeticIsUnchangedWhenNoSignalFires() {
    SignallingBackend sb = new SignallingBackend(fx.backend, fx.memory);
    DistributedLock lock = fx.lock(b -> b, sb);
    holdElsewhere("k");
    LockOptions o = opts().maxWait(ms(100)).retry(LockRetryPolicy.interval(5, ms(40))).build();
    CompletableFuture<LockHandle> f = lock.acquireAsync("k", o);
    fx.clock.advance(ms(40));
    fx.clock.advance(ms(40));
    LockNotAcquiredException e = (LockNotAcquiredException) failure(f);
    // the polls at 0/40/80 ms, and the re-check at 0 ms that follows the unsubscribed first one
    assertThat(fx.backend.times("acquire").subList(1, 5))
        .containsExactly(ms(0), ms(0), ms(40), ms(80));
    assertThat(e.attempts()).isEqualTo(4);
    assertThat(e.waited()).isEqualTo(ms(80));
    // the re-check subscribed for the first 40 ms step, poll 2 for its own; poll 3's 40 ms would
    // reach maxWait, so it did not subscribe
    assertThat(sb.subscriptions).hasSize(2).allMatch(s -> s.getNow(true).equals(false));
    assertThat(fx.memory.waiterCount()).isZero();
    assertThat(fx.clock.pendingTimers()).isEqualTo(1); // only the other holder's lease timer
  }

  @Test
  void retryExhaustionWithImmediateRetriesNeverSubscribes() {
    SignallingBackend sb = new SignallingBackend(fx.backend, fx.memory);
    DistributedLock lock = fx.lock(b -> b, sb); // immediate(3): no wait can follow any attempt
    holdElsewhere("k");
    LockNotAcquiredException e =
        (LockNotAcquiredException) failure(lock.acquireAsync("k", LockOptions.DEFAULTS));
    assertThat(e.attempts()).isEqualTo(4);
    assertThat(e.waited()).isZero();
    assertThat(sb.subscriptions).isEmpty();
  }

  @Test
  void maxWaitStillBoundsAWokenWaiter() {
    SignallingBackend sb = new SignallingBackend(fx.backend, fx.memory);
    DistributedLock lock = fx.lock(b -> b, sb);
    LockHandle first = holdElsewhere("k");
    LockOptions o = opts().maxWait(ms(100)).retry(LockRetryPolicy.linear(10, ms(50))).build();
    CompletableFuture<LockHandle> f = lock.acquireAsync("k", o);
    fx.clock.advance(ms(10));
    first.close(); // wakes the waiter...
    holdElsewhere("k"); // ...but another instance takes the key before its retry
    fx.clock.runDueTasks();
    assertThat(f).as("the woken attempt lost; the 50 ms step runs on").isNotDone();
    fx.clock.advance(ms(40));
    // attempt 2 at 50 ms is refused; its 100 ms delay would reach maxWait: no further attempt
    LockNotAcquiredException e = (LockNotAcquiredException) failure(f);
    // holder, first attempt, its re-check once subscribed, second holder, woken, attempt 2
    assertThat(fx.backend.times("acquire"))
        .containsExactly(ms(0), ms(0), ms(0), ms(10), ms(10), ms(50));
    assertThat(e.attempts())
        .as("every attempt sent, the re-check and the woken one included")
        .isEqualTo(4);
    assertThat(e.waited()).isEqualTo(ms(50));
    assertThat(fx.memory.waiterCount()).isZero();
    assertThat(fx.clock.pendingTimers()).isEqualTo(1); // the second holder's lease timer
  }

  @Test
  void aSpuriousSignalCostsOneAttemptButNoRetryAndFalseIsIgnored() {
    ManualSignal signal = new ManualSignal();
    DistributedLock lock = fx.lock(b -> b, new SignallingBackend(fx.backend, signal));
    holdElsewhere("k");
    CompletableFuture<LockHandle> f = lock.acquireAsync("k", LINEAR_50);
    // the re-check after the refused first attempt subscribed, bounded by the delay it may shorten
    assertThat(signal.maxWaits).containsExactly(ms(50));
    assertThat(fx.backend.times("acquire")).containsExactly(ms(0), ms(0), ms(0));

    fx.clock.advance(ms(10));
    signal.waits.get(0).complete(true); // the key is still held
    fx.clock.runDueTasks();
    assertThat(fx.backend.times("acquire")).containsExactly(ms(0), ms(0), ms(0), ms(10));
    // the woken attempt subscribed for the rest of the step, which keeps running
    assertThat(signal.maxWaits).containsExactly(ms(50), ms(40));

    fx.clock.advance(ms(40)); // the step ends at 50 ms as if nothing happened: retry 2 (100 ms)
    assertThat(fx.backend.times("acquire")).containsExactly(ms(0), ms(0), ms(0), ms(10), ms(50));
    assertThat(signal.waits.get(1)).as("ended by the lock").isCompletedWithValue(false);
    assertThat(signal.maxWaits).containsExactly(ms(50), ms(40), ms(100));

    fx.clock.advance(ms(10));
    signal.waits.get(2).complete(false); // "no signal": the 100 ms step runs on
    fx.clock.runDueTasks();
    assertThat(fx.backend.calls("acquire")).hasSize(5);
    fx.clock.advance(ms(90));
    assertThat(fx.backend.times("acquire"))
        .containsExactly(ms(0), ms(0), ms(0), ms(10), ms(50), ms(150));
    assertThat(signal.maxWaits).containsExactly(ms(50), ms(40), ms(100), ms(150));

    f.cancel(false);
    assertThat(signal.waits.get(3)).as("ended by the lock").isCompletedWithValue(false);
    assertThat(fx.clock.pendingTimers()).isEqualTo(1); // the holder's lease timer
  }

  @Test
  void aWokenAttemptRefusedAfterItsStepEndedStandsInForTheStepsAttempt() {
    ManualSignal signal = new ManualSignal();
    DistributedLock lock = fx.lock(b -> b, new SignallingBackend(fx.backend, signal));
    holdElsewhere("k");
    LockOptions o = opts().retry(LockRetryPolicy.linear(2, ms(50))).build();
    CompletableFuture<LockHandle> f = lock.acquireAsync("k", o);
    fx.clock.advance(ms(10));
    fx.faults.holdReplies(); // the woken attempt's refusal arrives late
    signal.waits.get(0).complete(true);
    fx.clock.runDueTasks();
    fx.clock.advance(ms(50)); // the step ends at 50 ms while the woken attempt is out: no attempt
    // holder, first attempt and its re-check once subscribed (both refused at 0 ms), woken
    assertThat(fx.backend.times("acquire")).containsExactly(ms(0), ms(0), ms(0), ms(10));
    fx.faults.deliverReplies(); // refused at 60 ms: retry 2, so the next step is 100 ms
    fx.clock.advance(ms(99));
    assertThat(fx.backend.calls("acquire")).hasSize(4);
    fx.clock.advance(ms(1)); // retry 3 > limit 2: given up after the policy's three attempts
    LockNotAcquiredException e = (LockNotAcquiredException) failure(f);
    assertThat(fx.backend.times("acquire")).containsExactly(ms(0), ms(0), ms(0), ms(10), ms(160));
    assertThat(e.attempts()).as("the policy's three and the free re-check").isEqualTo(4);
    assertThat(e.waited()).isEqualTo(ms(160));
    assertThat(signal.waits).allMatch(CompletableFuture::isDone);
    assertThat(fx.clock.pendingTimers()).isEqualTo(1); // the holder's lease timer
  }

  @Test
  void aReleaseWhileAWokenAttemptIsInFlightWakesItAgainAtItsRefusal() {
    ManualSignal signal = new ManualSignal();
    DistributedLock lock = fx.lock(b -> b, new SignallingBackend(fx.backend, signal));
    holdElsewhere("k");
    CompletableFuture<LockHandle> f = lock.acquireAsync("k", LINEAR_50);
    fx.clock.advance(ms(10));
    fx.faults.holdReplies();
    signal.waits.get(0).complete(true);
    fx.clock.runDueTasks(); // the woken attempt subscribed (waits[1]) before it was sent
    signal.waits.get(1).complete(true); // another release while it is out
    fx.faults.deliverReplies(); // refused, but released meanwhile: a second woken attempt now
    // holder, first attempt and its re-check once subscribed (waits[0]), the two woken ones
    assertThat(fx.backend.times("acquire")).containsExactly(ms(0), ms(0), ms(0), ms(10), ms(10));
    assertThat(f).isNotDone();
    fx.clock.advance(ms(40)); // both were free: the step still ends at 50 ms with retry 2
    assertThat(fx.backend.times("acquire")).endsWith(ms(10), ms(50));
    f.cancel(false);
    assertThat(signal.waits).allMatch(CompletableFuture::isDone);
    assertThat(fx.clock.pendingTimers()).isEqualTo(1); // the holder's lease timer
  }

  // ---------------------------------------------------------------- a herd of 8 waiters

  private static final int HERD = 8;

  /** Eight waiters on "k", each its own lock instance, over the in-memory backend's signal. */
  private List<CompletableFuture<LockHandle>> herd(boolean wake, LockOptions o) {
    SignallingBackend sb = new SignallingBackend(fx.backend, fx.memory);
    List<CompletableFuture<LockHandle>> waiters = new ArrayList<>();
    for (int i = 0; i < HERD; i++) {
      waiters.add(fx.lock(b -> b.wakeOnRelease(wake), sb).acquireAsync("k", o));
    }
    return waiters;
  }

  /**
   * Another instance, holding "k" as {@code first}, releases it every 10 ms until {@code untilMs}
   * and takes it back at once, so every release wakes the herd and every woken attempt loses.
   */
  private void churn(LockHandle first, long untilMs) {
    LockHandle holder = first;
    while (fx.clock.elapsed().toMillis() < untilMs) {
      fx.clock.advance(ms(10));
      holder.close();
      holder = holdElsewhere("k");
      fx.clock.runDueTasks(); // the woken attempts, refused
    }
  }

  @Test
  void eightWokenWaitersThatKeepLosingKeepTheirRetriesUntilThePolicysTotalDelay() {
    LockRetryPolicy policy = LockRetryPolicy.linear(3, ms(50)); // polls at 0, 50, 150, 300 ms
    LockOptions o = opts().retry(policy).build();
    LockHandle holder = holdElsewhere("k");
    List<CompletableFuture<LockHandle>> waiters = herd(true, o);
    churn(holder, 290); // 29 releases, 29 woken attempts per waiter (and the re-check), all lost
    assertThat(waiters)
        .as("a lost woken attempt uses no retry")
        .noneMatch(CompletableFuture::isDone);
    fx.clock.advance(ms(10));
    for (CompletableFuture<LockHandle> w : waiters) {
      LockNotAcquiredException e = (LockNotAcquiredException) failure(w);
      assertThat(e.waited()).isEqualTo(policy.maxTotalDelay()).isEqualTo(ms(300));
      // the re-check: the first poll goes out unsubscribed, so the refused one asks again once
      // subscribed
      assertThat(e.attempts()).as("4 polls + the re-check + 29 woken").isEqualTo(4 + 1 + 29);
    }
    assertThat(fx.memory.waiterCount()).isZero();
    assertThat(fx.clock.pendingTimers()).isEqualTo(1); // the churning holder's lease timer
  }

  @Test
  void withoutTheSignalTheSameHerdPollsExactlyThePolicysAttempts() {
    LockRetryPolicy policy = LockRetryPolicy.linear(3, ms(50));
    LockHandle holder = holdElsewhere("k");
    List<CompletableFuture<LockHandle>> waiters = herd(false, opts().retry(policy).build());
    churn(holder, 290);
    assertThat(waiters).noneMatch(CompletableFuture::isDone);
    fx.clock.advance(ms(10));
    for (CompletableFuture<LockHandle> w : waiters) {
      LockNotAcquiredException e = (LockNotAcquiredException) failure(w);
      assertThat(e.waited()).isEqualTo(ms(300));
      assertThat(e.attempts()).isEqualTo(4);
    }
    // the holder's 30 acquires at 0..290 ms plus 8 waiters x 4 polls at 0/50/150/300 ms
    List<Duration> times = fx.backend.times("acquire");
    assertThat(times).hasSize(30 + HERD * 4);
    for (long poll : new long[] {0, 50, 150, 300}) {
      assertThat(times).filteredOn(ms(poll)::equals).hasSize(poll == 300 ? HERD : HERD + 1);
    }
    assertThat(fx.memory.waiterCount()).isZero();
    assertThat(fx.clock.pendingTimers()).isEqualTo(1);
  }

  @Test
  void eightWokenWaitersStopAtMaxWaitExactlyWhenPollingWaitersDo() {
    // statement 22's example: W = 100 ms, interval(5, 40 ms) => polls at 0/40/80 ms, waited 80 ms
    LockOptions o = opts().maxWait(ms(100)).retry(LockRetryPolicy.interval(5, ms(40))).build();
    LockHandle holder = holdElsewhere("k");
    List<CompletableFuture<LockHandle>> woken = herd(true, o);
    List<CompletableFuture<LockHandle>> polling = herd(false, o);
    churn(holder, 100);
    for (CompletableFuture<LockHandle> w : woken) {
      LockNotAcquiredException e = (LockNotAcquiredException) failure(w);
      assertThat(e.waited()).isEqualTo(ms(80));
      // the re-check at 0 ms: the first poll goes out unsubscribed
      assertThat(e.attempts())
          .as("3 polls + the re-check + woken at 10..70 ms")
          .isEqualTo(3 + 1 + 7);
    }
    for (CompletableFuture<LockHandle> w : polling) {
      LockNotAcquiredException e = (LockNotAcquiredException) failure(w);
      assertThat(e.waited()).isEqualTo(ms(80));
      assertThat(e.attempts()).isEqualTo(3);
    }
    assertThat(fx.backend.times("acquire"))
        .as("after 80 ms only the holder's re-acquires at 90 and 100 ms")
        .filteredOn(t -> t.compareTo(ms(80)) > 0)
        .containsExactly(ms(90), ms(100));
    assertThat(fx.memory.waiterCount()).isZero();
    assertThat(fx.clock.pendingTimers()).isEqualTo(1);
  }

  @Test
  void eightWaitersTakeTurnsEachGrantedAtTheInstantOfTheRelease() {
    // 3 retries only: with lost woken attempts counted, the later waiters would give up
    LockOptions o = opts().retry(LockRetryPolicy.linear(3, ms(50))).build();
    LockHandle holder = holdElsewhere("k");
    List<CompletableFuture<LockHandle>> waiters = herd(true, o);
    List<CompletableFuture<LockHandle>> granted = new ArrayList<>();
    for (int turn = 1; turn <= HERD; turn++) {
      fx.clock.advance(ms(10));
      int before = fx.backend.calls("acquire").size();
      holder.close();
      fx.clock.runDueTasks();
      List<CompletableFuture<LockHandle>> now =
          waiters.stream()
              .filter(CompletableFuture::isDone)
              .filter(w -> !granted.contains(w))
              .toList();
      assertThat(now).as("turn %d: one waiter wins the release", turn).hasSize(1);
      granted.add(now.get(0));
      holder = value(now.get(0));
      assertThat(holder.isHeld()).isTrue();
      // the herd's cost: every waiter still waiting tries once per release
      assertThat(fx.backend.calls("acquire").size() - before).isEqualTo(HERD - turn + 1);
    }
    holder.close();
    assertThat(fx.events.matching("acquire:NOT_ACQUIRED")).isEmpty();
    assertThat(fx.memory.waiterCount()).isZero();
    assertThat(fx.clock.pendingTimers()).isZero();
  }

  @Test
  void aReleaseWhileTheRefusedReplyIsInFlightIsNotMissed() {
    SignallingBackend sb = new SignallingBackend(fx.backend, fx.memory);
    DistributedLock lock = fx.lock(b -> b, sb);
    LockHandle holder = holdElsewhere("k");
    fx.faults.holdReplies(); // the attempt is refused by the backend; its reply is late
    CompletableFuture<LockHandle> f = lock.acquireAsync("k", LINEAR_50);
    holder.close(); // released after the refusal, before the waiter knows
    fx.faults.deliverReplies(); // the refusal arrives: the signal has fired, retry at once
    LockHandle h = value(f);
    assertThat(h.isHeld()).isTrue();
    assertThat(fx.backend.times("acquire")).containsExactly(ms(0), ms(0), ms(0));
    assertThat(fx.memory.waiterCount()).isZero();
    h.close();
    assertThat(fx.clock.pendingTimers()).isZero();
  }

  @Test
  void subscribesOnlyAfterARefusedFirstAttemptAndEndsItOnGrant() {
    SignallingBackend sb = new SignallingBackend(fx.backend, fx.memory);
    DistributedLock lock = fx.lock(b -> b, sb);
    // uncontended: the first attempt goes out unsubscribed and is granted, so no subscription
    LockHandle h = lock.acquire("free", LINEAR_50);
    assertThat(sb.log).containsExactly("acquire");
    assertThat(sb.subscriptions).isEmpty();
    assertThat(fx.clock.pendingTimers()).isEqualTo(1); // the handle's lease timer
    h.close();

    // contended: refused unsubscribed, so it subscribes for the step and asks again at once (a
    // release between the refusal and the subscription is not missed): one attempt more than a
    // subscription before the first attempt would cost, the price of the free uncontended case
    sb.log.clear();
    LockHandle holder = holdElsewhere("busy");
    CompletableFuture<LockHandle> f = lock.acquireAsync("busy", LINEAR_50);
    assertThat(sb.log).containsExactly("acquire", "awaitRelease 50 ms", "acquire");
    assertThat(f).isNotDone();
    fx.clock.advance(ms(10));
    holder.close();
    fx.clock.runDueTasks();
    LockHandle granted = value(f);
    assertThat(sb.log).endsWith("awaitRelease 40 ms", "acquire"); // the woken attempt
    assertThat(sb.subscriptions).hasSize(2);
    assertThat(sb.subscriptions.get(0)).isCompletedWithValue(true);
    assertThat(sb.subscriptions.get(1)).as("ended by the lock").isCompletedWithValue(false);
    assertThat(fx.memory.waiterCount()).isZero();
    granted.close();

    sb.log.clear();
    holdElsewhere("other");
    assertThat(lock.tryAcquire("other")).isEmpty(); // maxWait 0: nothing to wait for
    assertThat(sb.log).containsExactly("acquire");
    assertThat(sb.subscriptions).hasSize(2);
  }

  @Test
  void abandoningOrClosingEndsTheSubscription() {
    SignallingBackend sb = new SignallingBackend(fx.backend, fx.memory);
    DistributedLock lock = fx.lock(b -> b, sb);
    holdElsewhere("k");
    CompletableFuture<LockHandle> abandoned = lock.acquireAsync("k", LINEAR_50);
    abandoned.cancel(false);
    assertThat(sb.subscriptions.get(0)).as("ended by the lock").isCompletedWithValue(false);

    CompletableFuture<LockHandle> closed = lock.acquireAsync("k", LINEAR_50);
    lock.close();
    assertThat(failure(closed)).isInstanceOf(IllegalStateException.class);
    assertThat(sb.subscriptions.get(1)).as("ended by the lock").isCompletedWithValue(false);
    assertThat(fx.memory.waiterCount()).isZero();
    assertThat(fx.clock.pendingTimers()).isEqualTo(1); // the holder's lease timer
  }

  @Test
  void aBrokenSignalOnlyCostsTheWakeUp() {
    ReleaseSignal throwing =
        (key, maxWait) -> {
          throw new IllegalStateException("signal down");
        };
    ReleaseSignal returnsNull = (key, maxWait) -> null;
    for (ReleaseSignal broken : List.of(throwing, returnsNull)) {
      DistributedLock lock = fx.lock(b -> b, new SignallingBackend(fx.backend, broken));
      Duration t0 = fx.clock.elapsed();
      LockHandle holder = holdElsewhere("k");
      CompletableFuture<LockHandle> f = lock.acquireAsync("k", LINEAR_50);
      fx.clock.advance(ms(20));
      holder.close();
      fx.clock.advance(ms(30));
      value(f).close();
      assertThat(fx.backend.times("acquire")).endsWith(t0, t0.plus(ms(50)));
    }
    assertThat(fx.clock.pendingTimers()).isZero();
  }

  @Test
  void theProbeSaysWhetherWaitsWakeOnRelease() {
    SignallingBackend sb = new SignallingBackend(fx.backend, fx.memory);
    assertThat((fx.lock(b -> b, sb)).describe().lines())
        .last()
        .asString()
        .startsWith(LockingOptions.KEY_WAKE_ON_RELEASE + " = true")
        .contains("signals releases");
    assertThat((fx.lock()).describe().lines())
        .last()
        .asString()
        .startsWith(LockingOptions.KEY_WAKE_ON_RELEASE + " = true")
        .contains("no release signal");
    assertThat((fx.lock(b -> b.wakeOnRelease(false), sb)).describe().lines())
        .last()
        .asString()
        .isEqualTo(LockingOptions.KEY_WAKE_ON_RELEASE + " = false (retry waits poll)");
  }

  @Test
  void realThreadsOnTheSystemClockStayExclusiveAndAllGetTheirTurn() throws Exception {
    InMemoryLockBackend shared = new InMemoryLockBackend();
    LockOptions patient = opts().retry(LockRetryPolicy.interval(1000, ms(20))).build();
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    AtomicInteger runs = new AtomicInteger();
    List<CompletableFuture<Integer>> workers = new ArrayList<>();
    for (int w = 0; w < 4; w++) {
      DistributedLock lock = DistributedLock.create(LockingOptions.of("real"), shared);
      workers.add(
          KernelFixture.onThread(
              () -> {
                for (int i = 0; i < 25; i++) {
                  lock.runWithLock(
                      "k",
                      patient,
                      h -> {
                        if (inside.incrementAndGet() != 1) {
                          overlaps.incrementAndGet();
                        }
                        runs.incrementAndGet();
                        inside.decrementAndGet();
                      });
                }
                return 0;
              }));
    }
    for (CompletableFuture<Integer> w : workers) {
      w.get(60, TimeUnit.SECONDS);
    }
    assertThat(overlaps).hasValue(0);
    assertThat(runs).hasValue(100);
    assertThat(shared.liveCount()).isZero();
    assertThat(shared.waiterCount()).isZero();
  }

  /** Lock commands go to {@code inner}; release signals to {@code signal}; both are logged. */
  static final class SignallingBackend extends ForwardingLockBackend implements ReleaseSignal {
    private final ReleaseSignal signal;
    final List<String> log = new ArrayList<>();
    final List<CompletableFuture<Boolean>> subscriptions = new ArrayList<>();

    SignallingBackend(LockBackend inner, ReleaseSignal signal) {
      super(inner);
      this.signal = signal;
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquire(
        String key, String owner, String data, Duration lease) {
      synchronized (this) {
        log.add("acquire");
      }
      return super.acquire(key, owner, data, lease);
    }

    @Override
    public CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait) {
      CompletableFuture<Boolean> f = signal.awaitRelease(key, maxWait);
      synchronized (this) {
        log.add("awaitRelease " + maxWait.toMillis() + " ms");
        if (f != null) {
          subscriptions.add(f);
        }
      }
      return f;
    }
  }

  /** A signal the test completes by hand. */
  static final class ManualSignal implements ReleaseSignal {
    final List<CompletableFuture<Boolean>> waits = new ArrayList<>();
    final List<Duration> maxWaits = new ArrayList<>();

    @Override
    public synchronized CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait) {
      CompletableFuture<Boolean> f = new CompletableFuture<>();
      waits.add(f);
      maxWaits.add(maxWait);
      return f;
    }
  }
}
