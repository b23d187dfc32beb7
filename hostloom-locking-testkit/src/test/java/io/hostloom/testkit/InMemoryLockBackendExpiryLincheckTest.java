package io.hostloom.testkit;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.testing.ManualLockClock;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link InMemoryLockBackend} while time passes: {@link #tick()} advances the
 * backend's clock by one lease unit concurrently with the five operations, so leases of one or two
 * units expire in the middle of scenarios. An operation must judge expiry and compute the new
 * expiry at the same instant as it reads and writes the record. One key only: fencing tokens need
 * only increase per key, so grants of different keys need not be ordered by the clock.
 */
public class InMemoryLockBackendExpiryLincheckTest extends LockBackendLincheckOperations {
  @Override
  protected LockBackend newBackend(ManualLockClock clock) {
    return new InMemoryLockBackend(clock);
  }

  @Override
  protected String keyName(int key) {
    return "k"; // see LockBackendLincheckSpec.SingleKey
  }

  @Operation
  public void tick() {
    clock.advance(UNIT);
  }

  @Test
  void modelChecking() {
    new ModelCheckingOptions()
        .iterations(10)
        .invocationsPerIteration(200)
        .threads(3)
        .actorsPerThread(3)
        .sequentialSpecification(LockBackendLincheckSpec.SingleKey.class)
        .check(getClass());
  }

  @Test
  void stress() {
    new StressOptions()
        .iterations(10)
        .invocationsPerIteration(300)
        .threads(3)
        .actorsPerThread(3)
        .sequentialSpecification(LockBackendLincheckSpec.SingleKey.class)
        .check(getClass());
  }
}
