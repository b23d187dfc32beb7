package io.hostloom.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;
import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;

/**
 * What Spring Integration's components rely on, against one backend: each registry stands for one
 * process (its own lock, so its own owner tokens) over the shared backend. Real threads and time,
 * bounded waits.
 */
abstract class LockRegistryContract {

  /**
   * The wait of a {@code tryLock} on a key that is free or about to be: long enough for a loaded
   * machine's first round trip (a 100 ms wait once ran out before the grant under a load of 23),
   * and for the server to expire a key whose loss the holder's own clock has already declared.
   */
  private static final Duration FREE_KEY_WAIT = Duration.ofSeconds(5);

  private final List<DistributedLock> locks = new ArrayList<>();

  /** The backend every registry of a test shares. */
  protected abstract LockBackend backend();

  /** A lease short enough for expiry tests on a real server. */
  protected Duration lease() {
    return TestTiming.scaled(Duration.ofSeconds(3));
  }

  protected HostLoomLockRegistry registry() {
    return registry(lease());
  }

  protected HostLoomLockRegistry registry(Duration registryLease) {
    DistributedLock lock = DistributedLock.builder(LockingOptions.of("si"), backend()).build();
    locks.add(lock);
    return HostLoomLockRegistry.builder(lock).lease(registryLease).build();
  }

  @AfterEach
  void closeLocks() {
    schedulers.forEach(SimpleAsyncTaskScheduler::close);
    locks.forEach(DistributedLock::close);
  }

  private final List<SimpleAsyncTaskScheduler> schedulers = new ArrayList<>();

  private static String key(String name) {
    return name + "-" + System.nanoTime();
  }

  @Test
  void reentrantForTheOwningThreadAndExclusiveAcrossRegistries() throws Exception {
    HostLoomLockRegistry a = registry();
    HostLoomLockRegistry b = registry();
    String key = key("reentrant");
    HostLoomLock la = a.obtain(key);
    assertThat(a.obtain(key)).isSameAs(la);
    la.lock();
    assertThat(la.tryLock()).isTrue();
    assertThat(la.tryLock(1, TimeUnit.SECONDS)).isTrue();
    long token = la.fencingToken();
    assertThat(token).isPositive();
    HostLoomLock lb = b.obtain(key);
    assertThat(lb.tryLock()).isFalse();
    la.unlock();
    la.unlock();
    assertThat(lb.tryLock()).isFalse(); // one hold left
    la.unlock();
    assertThat(
            lb.tryLock(TestTiming.scaled(Duration.ofSeconds(5)).toMillis(), TimeUnit.MILLISECONDS))
        .isTrue();
    assertThat(lb.fencingToken()).isGreaterThan(token);
    lb.unlock();
  }

  @Test
  void anotherThreadOfTheSameRegistryWaitsAndTryLockWithATimeoutGivesUp() throws Exception {
    HostLoomLockRegistry a = registry();
    String key = key("threads");
    HostLoomLock l = a.obtain(key);
    l.lock();
    try {
      CompletableFuture<Boolean> other =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return l.tryLock(100, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              });
      assertThat(other.get(10, TimeUnit.SECONDS)).isFalse();
      HostLoomLock remote = registry().obtain(key);
      assertThat(remote.tryLock(100, TimeUnit.MILLISECONDS)).isFalse();
    } finally {
      l.unlock();
    }
  }

  @Test
  void unlockByANonOwnerThrows() throws Exception {
    HostLoomLockRegistry a = registry();
    HostLoomLock l = a.obtain(key("owner"));
    assertThatThrownBy(l::unlock).isInstanceOf(IllegalStateException.class);
    l.lock();
    try {
      CompletableFuture<Void> other = CompletableFuture.runAsync(l::unlock);
      assertThatThrownBy(() -> other.get(10, TimeUnit.SECONDS))
          .hasCauseInstanceOf(IllegalStateException.class);
      assertThat(l.isHeld()).isTrue();
    } finally {
      l.unlock();
    }
    assertThatThrownBy(l::newCondition).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void renewLockKeepsTheLeasePastItsFirstEndAndFailsWhenNotHeld() throws Exception {
    HostLoomLockRegistry a = registry();
    HostLoomLockRegistry b = registry();
    String key = key("renew");
    assertThatThrownBy(() -> a.renewLock(key)).isInstanceOf(IllegalStateException.class);
    HostLoomLock l = a.obtain(key);
    assertThatThrownBy(() -> a.renewLock(key)).isInstanceOf(IllegalStateException.class);
    l.lock();
    try {
      long end = System.nanoTime() + lease().multipliedBy(2).toNanos();
      while (System.nanoTime() < end) {
        a.renewLock(key);
        assertThat(b.obtain(key).tryLock()).isFalse();
        Thread.sleep(lease().toMillis() / 4); // the renewal cadence, not a wait for a result
      }
      assertThat(l.isHeld()).isTrue();
    } finally {
      l.unlock();
    }
  }

  @Test
  void aReentrantLockAfterTheLeaseRanOutReacquiresWithANewTokenAndUnlockReportsTheLoss()
      throws Exception {
    HostLoomLockRegistry a = registry();
    HostLoomLockRegistry b = registry();
    String key = key("lost");
    HostLoomLock l = a.obtain(key);
    l.lock();
    long first = l.fencingToken();
    awaitLoss(l);
    HostLoomLock other = b.obtain(key);
    assertThat(other.tryLock(5, TimeUnit.SECONDS)).isTrue();
    assertThat(l.tryLock()).isFalse(); // the reentrant call notices: another registry holds it
    other.unlock();
    assertThat(l.tryLock(5, TimeUnit.SECONDS)).isTrue(); // re-obtained in the store
    assertThat(l.fencingToken()).isGreaterThan(first);
    l.unlock();
    l.unlock();
    l.lock();
    await(() -> !l.isHeld());
    assertThatThrownBy(l::unlock).isInstanceOf(ConcurrentModificationException.class);
    assertThat(b.obtain(key).tryLock()).isTrue();
    b.obtain(key).unlock();
  }

  @Test
  void tryLockWithZeroTimeAsksTheBackendOnceAndExecuteLockedWithZeroRuns() throws Throwable {
    HostLoomLockRegistry a = registry();
    HostLoomLockRegistry b = registry();
    String key = key("zero");
    HostLoomLock l = a.obtain(key);
    assertThat(l.tryLock(0, TimeUnit.MILLISECONDS)).isTrue();
    assertThat(b.obtain(key).tryLock(0, TimeUnit.SECONDS)).isFalse();
    l.unlock();
    AtomicInteger runs = new AtomicInteger();
    b.executeLocked(key, Duration.ZERO, () -> runs.incrementAndGet()); // raw: throws Throwable
    assertThat(runs.get()).isEqualTo(1);
    assertThat(a.obtain(key).tryLock(0, TimeUnit.MILLISECONDS)).isTrue(); // b released it
    a.obtain(key).unlock();
  }

  @Test
  void locksAreSpringIntegration7DistributedLocksWithAPerCallLease() throws Exception {
    HostLoomLockRegistry a = registry(Duration.ofMinutes(10));
    HostLoomLockRegistry b = registry();
    String key = key("ttl");
    HostLoomLock l = a.obtain(key);
    assertThat(isSi7DistributedLock(l)).isEqualTo(si7()); // 7's interface whenever 7 is there
    l.lock(lease()); // shorter than the registry's 10 min
    awaitLoss(l);
    assertThat(b.obtain(key).tryLock(FREE_KEY_WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    b.obtain(key).unlock();
    assertThatThrownBy(l::unlock).isInstanceOf(ConcurrentModificationException.class);

    String other = key("ttl2");
    HostLoomLock t = a.obtain(other);
    assertThat(t.tryLock(FREE_KEY_WAIT, lease())).isTrue();
    awaitLoss(t);
    assertThatThrownBy(t::unlock)
        .isInstanceOf(ConcurrentModificationException.class)
        .hasMessageContaining("Lock was released in the store due to expiration.");
  }

  @Test
  void renewLockWithItsOwnLeaseKeepsTheLockPastThePerCallLease() throws Exception {
    HostLoomLockRegistry a = registry();
    HostLoomLockRegistry b = registry();
    String key = key("renewttl");
    HostLoomLock l = a.obtain(key);
    assertThat(l.tryLock(FREE_KEY_WAIT, lease())).isTrue();
    try {
      a.renewLock(key, lease().multipliedBy(10));
      TestTiming.pass(lease().multipliedBy(2));
      assertThat(b.obtain(key).tryLock(100, TimeUnit.MILLISECONDS)).isFalse();
    } finally {
      l.unlock();
    }
  }

  @Test
  void theRenewalTaskSchedulerKeepsGrantsPastTheirLeaseUntilUnlocked() throws Exception {
    HostLoomLockRegistry a = registry();
    HostLoomLockRegistry b = registry();
    SimpleAsyncTaskScheduler scheduler = new SimpleAsyncTaskScheduler();
    schedulers.add(scheduler);
    a.setRenewalTaskScheduler(scheduler);
    String key = key("scheduled");
    HostLoomLock l = a.obtain(key);
    assertThat(l.tryLock()).isTrue();
    TestTiming.pass(lease().multipliedBy(2));
    assertThat(l.isHeld()).isTrue();
    assertThat(b.obtain(key).tryLock()).isFalse();
    l.unlock(); // no ConcurrentModificationException: the lease never ran out
    assertThat(b.obtain(key).tryLock()).isTrue();
    b.obtain(key).unlock();
  }

  @Test
  void aOneMillisecondLeaseAnswersInsteadOfThrowing() throws Exception {
    HostLoomLockRegistry a = registry(Duration.ofMillis(1));
    HostLoomLock l = a.obtain(key("tiny"));
    // the grant may come back after its 1 ms were spent: then it is no grant, but an answer
    if (l.tryLock()) {
      await(() -> !l.isHeld());
      assertThatThrownBy(l::unlock).isInstanceOf(ConcurrentModificationException.class);
    }
    if (l.tryLock(50, TimeUnit.MILLISECONDS)) {
      await(() -> !l.isHeld());
      assertThatThrownBy(l::unlock).isInstanceOf(ConcurrentModificationException.class);
    }
  }

  @Test
  void springRedisRegistryMessagesAndExceptions() throws Exception {
    HostLoomLockRegistry a = registry();
    String key = key("messages");
    HostLoomLock l = a.obtain(key);
    assertThatThrownBy(l::unlock)
        .isExactlyInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("You do not own lock at ");
    assertThatThrownBy(() -> a.renewLock(key))
        .isExactlyInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Could not renew mutex at ");
    assertThatThrownBy(() -> a.renewLock(key("never")))
        .isExactlyInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Could not renew mutex at ");
    l.lock();
    CompletableFuture<Throwable> other =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                l.unlock();
                return null;
              } catch (IllegalStateException e) {
                return e;
              }
            });
    assertThat(other.get(10, TimeUnit.SECONDS)).hasMessageContaining("You do not own lock at");
    awaitLoss(l);
    assertThatThrownBy(l::unlock)
        .isExactlyInstanceOf(ConcurrentModificationException.class)
        .hasMessageContaining("Lock was released in the store due to expiration.");
    assertThat(l.isAcquiredInThisProcess()).isFalse(); // the local lock is released anyway
    assertThatThrownBy(l::newCondition).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aReentrantCallThatCannotReacquireKeepsTheLostGrantForTheOuterUnlock() throws Exception {
    HostLoomLockRegistry a = registry();
    HostLoomLockRegistry b = registry();
    String key = key("overlap");
    HostLoomLock l = a.obtain(key);
    l.lock();
    awaitLoss(l);
    HostLoomLock other = b.obtain(key);
    assertThat(other.tryLock(FREE_KEY_WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(l.tryLock()).isFalse(); // the heartbeat-style reentrant call learns of the loss
    other.unlock();
    assertThatThrownBy(l::unlock).isInstanceOf(ConcurrentModificationException.class);
  }

  @Test
  void twoThreadsOfTwoRegistriesTakeTurnsAndTheWaiterGetsItWhenReleased() throws Exception {
    HostLoomLockRegistry a = registry();
    HostLoomLockRegistry b = registry();
    String key = key("turns");
    HostLoomLock first = a.obtain(key);
    first.lockInterruptibly();
    CompletableFuture<Long> waiter =
        CompletableFuture.supplyAsync(
            () -> {
              HostLoomLock second = b.obtain(key);
              second.lock();
              try {
                return second.fencingToken();
              } finally {
                second.unlock();
              }
            });
    long token = first.fencingToken();
    first.unlock();
    assertThat(waiter.get(20, TimeUnit.SECONDS)).isGreaterThan(token);
  }

  @Test
  void ofTwoRegistriesWaitingForAReleaseExactlyOneGetsIt() throws Exception {
    HostLoomLockRegistry holder = registry(Duration.ofMinutes(1));
    String key = key("wakeup");
    HostLoomLock l = holder.obtain(key);
    l.lock();
    AtomicInteger winners = new AtomicInteger();
    CountDownLatch started = new CountDownLatch(2);
    List<CompletableFuture<Void>> waiters = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      HostLoomLock w = registry(Duration.ofMinutes(1)).obtain(key);
      waiters.add(
          CompletableFuture.runAsync(
              () -> {
                started.countDown();
                try {
                  if (w.tryLock(
                      TestTiming.scaled(Duration.ofSeconds(4)).toMillis(), TimeUnit.MILLISECONDS)) {
                    winners.incrementAndGet(); // keeps it: the other must time out
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }));
    }
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    l.unlock();
    CompletableFuture.allOf(waiters.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
    assertThat(winners.get()).isEqualTo(1);
  }

  @Test
  void manyRegistriesLockingOneKeyAllGetATurn() throws Exception {
    String key = key("many");
    List<Callable<Boolean>> jobs = new ArrayList<>();
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger maxInside = new AtomicInteger();
    for (int i = 0; i < 5; i++) {
      HostLoomLockRegistry r = registry();
      jobs.add(
          () -> {
            HostLoomLock l = r.obtain(key);
            l.lock();
            try {
              maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
              inside.decrementAndGet();
            } finally {
              l.unlock();
            }
            return true;
          });
    }
    ExecutorService pool = Executors.newFixedThreadPool(5);
    try {
      for (int round = 0; round < 3; round++) {
        for (Future<Boolean> f : pool.invokeAll(jobs)) {
          assertThat(f.get(60, TimeUnit.SECONDS)).isTrue();
        }
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(maxInside.get()).isEqualTo(1);
  }

  @Test
  void leaderInitiatorsElectExactlyOneLeaderAndHandOverWhenTheLeaderStops() throws Exception {
    String role = "role-" + System.nanoTime();
    AtomicInteger leading = new AtomicInteger();
    AtomicInteger maxLeading = new AtomicInteger();
    List<String> grants = new CopyOnWriteArrayList<>();
    List<Long> tokens = new CopyOnWriteArrayList<>();
    List<LockRegistryLeaderInitiator> initiators = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      HostLoomLockRegistry registry = registry();
      String id = "candidate-" + i;
      LockRegistryLeaderInitiator initiator =
          new LockRegistryLeaderInitiator(
              registry,
              new DefaultCandidate(id, role) {
                @Override
                public void onGranted(Context ctx) {
                  maxLeading.accumulateAndGet(leading.incrementAndGet(), Math::max);
                  grants.add(id);
                  tokens.add(registry.obtain(role).fencingToken());
                }

                @Override
                public void onRevoked(Context ctx) {
                  leading.decrementAndGet();
                }
              });
      initiator.setHeartBeatMillis(100);
      initiator.setBusyWaitMillis(50);
      initiators.add(initiator);
    }
    try {
      initiators.forEach(LockRegistryLeaderInitiator::start);
      await(() -> grants.size() == 1);
      TestTiming.pass(lease().multipliedBy(2)); // heartbeats past two leases: still one leader
      assertThat(grants).hasSize(1);
      assertThat(maxLeading.get()).isEqualTo(1);
      int leader = Integer.parseInt(grants.get(0).substring("candidate-".length()));
      assertThat(initiators.get(leader).getContext().isLeader()).isTrue();

      initiators.get(leader).stop();
      await(() -> grants.size() == 2);
      assertThat(grants.get(1)).isNotEqualTo(grants.get(0));
      assertThat(tokens.get(1)).isGreaterThan(tokens.get(0));
      long leaders = initiators.stream().filter(i -> i.getContext().isLeader()).count();
      assertThat(leaders).isEqualTo(1);
      assertThat(leading.get()).isEqualTo(1);
    } finally {
      initiators.forEach(LockRegistryLeaderInitiator::stop);
    }
  }

  private static boolean si7() {
    try {
      Class.forName("org.springframework.integration.support.locks.DistributedLock");
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  private static boolean isSi7DistributedLock(Object lock) {
    for (Class<?> c = lock.getClass(); c != null; c = c.getSuperclass()) {
      for (Class<?> i : c.getInterfaces()) {
        if (i.getName().equals("org.springframework.integration.support.locks.DistributedLock")) {
          return true;
        }
      }
    }
    return false;
  }

  /** Waits until the lock's current grant is lost (its lease ran out). */
  private static void awaitLoss(Object lock) {
    CompletableFuture<?> lost = ((HostLoomLock) lock).lost();
    await(lost::isDone);
  }

  private static void await(BooleanSupplier condition) {
    TestTiming.await(condition, Duration.ofSeconds(20));
  }
}
