package io.hostloom.azure;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.semaphore.DistributedSemaphoreConformanceSuite;
import java.time.Duration;

/**
 * The semaphore suite against a real Azurite; every process is its own client. Leases are whole
 * seconds on Azure (a claim ends up to one second after its lease), hence the 2 s lease.
 */
class AzureSemaphoreConformanceTest extends DistributedSemaphoreConformanceSuite {
  private static final String CONTAINER =
      Azurite.shared().newContainer("semaphore").getBlobContainerName();

  @Override
  protected LockBackend newBackend() {
    return Azurite.shared().backend(CONTAINER).build();
  }

  @Override
  protected Duration lease() {
    return Duration.ofSeconds(2);
  }
}
