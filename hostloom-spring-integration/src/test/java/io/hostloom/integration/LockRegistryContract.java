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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

/**
 * What Spring Integration's components rely on, against one backend: each registry stands for one
 * process (its own lock, so its own owner tokens) over the shared backend. Real threads and time,
 * bounded waits.
 */
abstract class LockRegistryContract {
  private final List<DistributedLock> locks = new ArrayList<>();

  /** The backend every registry of a test shares. */
  protected abstract LockBackend backend();

  /** A lease short enough for expiry tests on a real server. */
  protected Duration lease() {
    return TestTiming.scaled(Duration.ofSeconds(3));
  }

  protected HostLoomLockRegistry registry() {
    DistributedLock lock = DistributedLock.builder(LockingOptions.of("si"), backend()).build();
    locks.add(lock);
    return HostLoomLockRegistry.builder(lock).lease(lease()).build();
  }

  @AfterEach
  void closeLocks() {
    locks.forEach(DistributedLock::close);
  }

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
    AtomicReference<Object> reason = new AtomicReference<>();
    l.lost().thenAccept(reason::set);
    await(() -> reason.get() != null);
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

  private static void await(BooleanSupplier condition) {
    TestTiming.await(condition, Duration.ofSeconds(20));
  }
}
