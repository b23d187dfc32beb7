package io.hostloom.shedlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.testing.CountingLockBackend.Operation;
import io.hostloom.locking.testing.FaultInjectingLockBackend;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.support.LockException;
import org.junit.jupiter.api.Test;

/** Backend failures: thrown from lock and extend (the task does not run), logged from unlock. */
class LockProviderFailureTest {
  private final InMemoryLockBackend memory = new InMemoryLockBackend();
  private final FaultInjectingLockBackend faults = new FaultInjectingLockBackend(memory);
  private final HostLoomLockProvider provider =
      new HostLoomLockProvider(DistributedLock.create(LockingOptions.of("shedlock"), faults));

  private static LockConfiguration config() {
    return new LockConfiguration(Instant.now(), "job", Duration.ofSeconds(30), Duration.ZERO);
  }

  @Test
  void aFailedLockThrowsInsteadOfAnsweringNotLocked() {
    faults.failNext(1, LockFailureKind.UNAVAILABLE, Operation.ACQUIRE);
    assertThatThrownBy(() -> provider.lock(config()))
        .isInstanceOf(LockException.class)
        .hasMessageContaining("acquire of 'shedlock:job' failed");
    assertThat(provider.lock(config())).isPresent();
  }

  @Test
  void aFailedExtendThrowsAndAFailedUnlockDoesNot() {
    Optional<SimpleLock> lock = provider.lock(config());
    assertThat(lock).isPresent();
    faults.failNext(1, LockFailureKind.TIMEOUT, Operation.EXTEND);
    assertThatThrownBy(() -> lock.get().extend(Duration.ofSeconds(30), Duration.ZERO))
        .isInstanceOf(LockException.class);

    Optional<SimpleLock> other =
        provider.lock(
            new LockConfiguration(Instant.now(), "job2", Duration.ofSeconds(30), Duration.ZERO));
    faults.failNext(1, LockFailureKind.OTHER, Operation.RELEASE);
    other.get().unlock(); // logged; the lease ends by itself
    assertThat(memory.read(provider.keyOf("job2")).join()).isPresent();
  }

  @Test
  void anAcquireThatTimedOutAfterTheBackendAppliedItIsReleasedSoTheTaskIsNotBlocked() {
    for (LockFailureKind kind :
        new LockFailureKind[] {LockFailureKind.TIMEOUT, LockFailureKind.OTHER}) {
      faults.applyThenFail(1, kind, Operation.ACQUIRE);
      assertThatThrownBy(() -> provider.lock(config())).isInstanceOf(LockException.class);
      TestTiming.await(
          "the uncertain grant was released",
          () -> memory.read(provider.keyOf("job")).join().isEmpty(),
          Duration.ofSeconds(10));
      Optional<SimpleLock> next = provider.lock(config());
      assertThat(next).as("after %s", kind).isPresent();
      next.get().unlock();
    }
  }
}
