package io.hostloom.azure;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.rwlock.DistributedReadWriteLockConformanceSuite;
import java.time.Duration;

/**
 * The reader-writer lock over {@link AzureBlobLockBackend} on a real Azurite, two clients. Its
 * operations are conditional writes on one blob per key (ETags), linearizable per key as the
 * generic construction needs; leases are whole seconds, hence the 2 s short lease.
 */
class AzureReadWriteLockConformanceTest extends DistributedReadWriteLockConformanceSuite {
  private static final String CONTAINER =
      Azurite.shared().newContainer("rwlock").getBlobContainerName();

  @Override
  protected LockBackend newBackend() {
    return Azurite.shared().backend(CONTAINER).build();
  }

  @Override
  protected Duration shortLease() {
    return Duration.ofSeconds(2);
  }
}
