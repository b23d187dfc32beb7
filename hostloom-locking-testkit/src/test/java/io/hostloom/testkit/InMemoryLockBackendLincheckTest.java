package io.hostloom.testkit;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.testing.ManualLockClock;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link InMemoryLockBackend} while time stands still: Lincheck runs random
 * concurrent scenarios of the five operations on two keys and three owners and checks every outcome
 * against {@link LockBackendLincheckSpec}. {@link InMemoryLockBackendExpiryLincheckTest} adds the
 * passing of time. Runs in the {@code lincheck} surefire execution.
 */
public class InMemoryLockBackendLincheckTest extends LockBackendLincheckOperations {
  @Override
  protected LockBackend newBackend(ManualLockClock clock) {
    return new InMemoryLockBackend(clock);
  }

  @Test
  void modelChecking() {
    new ModelCheckingOptions()
        .iterations(10)
        .invocationsPerIteration(200)
        .threads(3)
        .actorsPerThread(3)
        .sequentialSpecification(LockBackendLincheckSpec.class)
        .check(getClass());
  }

  @Test
  void stress() {
    new StressOptions()
        .iterations(10)
        .invocationsPerIteration(300)
        .threads(3)
        .actorsPerThread(3)
        .sequentialSpecification(LockBackendLincheckSpec.class)
        .check(getClass());
  }
}
