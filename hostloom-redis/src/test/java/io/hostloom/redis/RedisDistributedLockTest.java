package io.hostloom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockBackendUnavailableException;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.kernel.RealBackendExclusionSuite;
import io.lettuce.core.RedisClient;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandSucceededEvent;
import java.time.Duration;
import java.util.EnumSet;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The lock kernel ({@link DistributedLock#create}) over {@link RedisLockBackend} on a real server,
 * with real threads: exclusion across two lock instances (two "processes", each with its own
 * backend and connections), waiters woken by the release signal, and an outage seen through the
 * kernel.
 */
class RedisDistributedLockTest extends RealBackendExclusionSuite {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final RedisServerProcess redis = RedisServerProcess.shared();

  private RedisLockBackend backend(String uri) {
    return RedisLockBackend.builder().uri(uri).build();
  }

  @Override
  protected LockBackend newBackend() {
    return backend(redis.uri());
  }

  @Override
  protected OptionalInt pendingWaits(LockBackend backend) {
    return OptionalInt.of(((RedisLockBackend) backend).releaseWaiters());
  }

  @Override
  protected int threadsPerInstance() {
    return 4;
  }

  @Override
  protected int rounds() {
    return 15;
  }

  @Test
  void aWaiterIsGrantedOnReleaseNotAtItsNextPoll() throws Exception {
    // one retry after a minute: only the release signal can end the wait within the test's bound
    LockingOptions options =
        LockingOptions.builder()
            .namespace("wake")
            .retry(LockRetryPolicy.interval(1, Duration.ofMinutes(1)))
            .build();
    String key = "k-" + UUID.randomUUID();
    AtomicInteger answered = new AtomicInteger(); // scripts the waiter's server answered
    RedisClient waiterClient = RedisClient.create();
    waiterClient.addListener(
        new CommandListener() {
          @Override
          public void commandSucceeded(CommandSucceededEvent event) {
            if (event.getCommand().getType().toString().equals("EVALSHA")) {
              answered.incrementAndGet();
            }
          }
        });
    try (RedisLockBackend holderBackend = backend(redis.uri());
        RedisLockBackend waiterBackend =
            RedisLockBackend.builder().client(waiterClient).uri(redis.uri()).build();
        DistributedLock holder = DistributedLock.create(options, holderBackend);
        DistributedLock waiter = DistributedLock.create(options, waiterBackend)) {
      ReleaseSignalTest.awaitSubscribed(waiterBackend);
      LockHandle held = holder.acquire(key);
      CompletableFuture<LockHandle> waiting = waiter.acquireAsync(key, LockOptions.DEFAULTS);
      // the first attempt goes out unsubscribed; once refused, the kernel subscribes and asks
      // again before it waits, so a release in between is not missed
      TestTiming.await(
          "the waiter's first attempt and its re-check were refused",
          () -> answered.get() == 2,
          WAIT);
      assertThat(waiterBackend.releaseWaiters()).isEqualTo(1); // subscribed before the re-check
      assertThat(waiting).isNotDone();
      held.close();
      try (LockHandle granted = TestTiming.get(waiting, WAIT)) {
        assertThat(granted.isHeld()).isTrue();
        assertThat(granted.fencingToken()).isGreaterThan(held.fencingToken());
        TestTiming.await("the grant's reply is counted", () -> answered.get() >= 3, WAIT);
        // the refused attempt, the refused re-check and the granted one, no poll
        assertThat(answered).hasValue(3);
      }
      assertThat(waiterBackend.releaseWaiters()).isZero();
    } finally {
      waiterClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  @Test
  void theFirstContendedWaitOfAFreshBackendIsWokenByTheReleaseToo() throws Exception {
    // as above, but nothing warms the waiter's subscription up: its very first wait must not
    // depend on whether the pattern was confirmed before its first attempt was refused
    LockingOptions options =
        LockingOptions.builder()
            .namespace("wake")
            .retry(LockRetryPolicy.interval(1, Duration.ofMinutes(1)))
            .build();
    String key = "k-" + UUID.randomUUID();
    AtomicInteger answered = new AtomicInteger();
    RedisClient waiterClient = RedisClient.create();
    waiterClient.addListener(
        new CommandListener() {
          @Override
          public void commandSucceeded(CommandSucceededEvent event) {
            if (event.getCommand().getType().toString().equals("EVALSHA")) {
              answered.incrementAndGet();
            }
          }
        });
    try (RedisLockBackend holderBackend = backend(redis.uri());
        RedisLockBackend waiterBackend =
            RedisLockBackend.builder().client(waiterClient).uri(redis.uri()).build();
        DistributedLock holder = DistributedLock.create(options, holderBackend);
        DistributedLock waiter = DistributedLock.create(options, waiterBackend)) {
      assertThat(waiterBackend.releaseSignalUp()).isFalse();
      LockHandle held = holder.acquire(key);
      CompletableFuture<LockHandle> waiting = waiter.acquireAsync(key, LockOptions.DEFAULTS);
      // refused unsubscribed (the kernel subscribes only after a refusal), re-checked by the
      // kernel once subscribed, re-checked again once the pattern was confirmed, now waiting
      TestTiming.await(
          "the waiter re-checked once subscribed and waits on the signal",
          () ->
              waiterBackend.releaseSignalUp()
                  && answered.get() == 3
                  && waiterBackend.releaseWaiters() == 1,
          WAIT);
      assertThat(waiting).isNotDone();
      held.close();
      try (LockHandle granted = TestTiming.get(waiting, WAIT)) {
        assertThat(granted.isHeld()).isTrue();
        TestTiming.await("the grant's reply is counted", () -> answered.get() >= 4, WAIT);
        // three refusals (first attempt, the kernel's re-check once subscribed, the re-check once
        // the pattern was confirmed) and the grant, no poll
        assertThat(answered).hasValue(4);
      }
    } finally {
      waiterClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  @Test
  void anOutageFailsAcquisitionsTypedWithoutFalseGrantsAndHealsWithoutNewClients() {
    Set<LockFailureKind> seen = EnumSet.noneOf(LockFailureKind.class);
    ConcurrentLinkedQueue<String> grantsWhileDown = new ConcurrentLinkedQueue<>();
    try (RedisServerProcess own = RedisServerProcess.startNew();
        RedisLockBackend b =
            RedisLockBackend.builder()
                .uri(own.uri())
                .commandTimeout(Duration.ofSeconds(1))
                .build();
        DistributedLock lock = DistributedLock.create(LockingOptions.of("outage"), b)) {
      String key = "k-" + UUID.randomUUID();
      long before;
      try (LockHandle h = lock.acquire(key)) {
        before = h.fencingToken();
      }
      LockHandle held = lock.acquire(key);
      // uncontended acquires never subscribe (the kernel subscribes only after a refusal): start
      // the release subscription by hand, so the outage also takes it down
      TestTiming.get(b.warmUp(), WAIT);
      TestTiming.await("subscribed", b::releaseSignalUp, WAIT);

      own.stop();
      // every acquisition fails typed; once Lettuce noticed the loss, as UNAVAILABLE
      TestTiming.await(
          "an acquisition fails UNAVAILABLE",
          () -> {
            try (LockHandle h = lock.acquire("other-" + UUID.randomUUID())) {
              grantsWhileDown.add(h.key());
              return false;
            } catch (LockBackendUnavailableException e) {
              seen.add(e.kind());
              return e.kind() == LockFailureKind.UNAVAILABLE;
            }
          },
          WAIT);
      for (int i = 0; i < 5; i++) {
        try (LockHandle h = lock.acquire(key)) {
          grantsWhileDown.add(h.key());
        } catch (LockBackendUnavailableException e) {
          seen.add(e.kind());
          assertThat(e.kind()).isEqualTo(LockFailureKind.UNAVAILABLE);
          assertThat(e.attempts()).isEqualTo(1); // never retried
        }
      }
      assertThat(grantsWhileDown).isEmpty();
      assertThat(seen).isSubsetOf(EnumSet.of(LockFailureKind.UNAVAILABLE, LockFailureKind.OTHER));

      own.start(); // empty: the old lease is gone with the server
      LockHandle[] again = new LockHandle[1];
      TestTiming.await(
          "the same lock grants again",
          () -> {
            try {
              again[0] = lock.acquire(key);
              return true;
            } catch (LockBackendUnavailableException e) {
              return false;
            }
          },
          WAIT);
      held.close(); // its lease went with the server: nothing to release, never throws
      try (LockHandle h = again[0]) {
        assertThat(h.fencingToken()).isGreaterThan(before); // seeded from the server clock
      }
      TestTiming.await("re-subscribed", b::releaseSignalUp, WAIT);
      System.out.println("[redis kernel outage] failure kinds seen while down: " + seen);
    }
  }
}
