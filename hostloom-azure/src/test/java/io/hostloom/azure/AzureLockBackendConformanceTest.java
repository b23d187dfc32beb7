package io.hostloom.azure;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.LockBackendConformanceSuite;
import java.time.Duration;

/**
 * The backend contract against a real Azurite. Leases are whole seconds on Azure, and a claim
 * expires between its lease and one second later by the service's clock, hence the 2 s short lease
 * and the 3 s grace.
 */
class AzureLockBackendConformanceTest extends LockBackendConformanceSuite {
  private static final String CONTAINER =
      Azurite.shared().newContainer("conformance").getBlobContainerName();

  @Override
  protected LockBackend newBackend() {
    return Azurite.shared().backend(CONTAINER).build(); // its own client: another instance
  }

  @Override
  protected Duration shortLease() {
    return Duration.ofSeconds(2);
  }

  @Override
  protected Duration expiryGrace() {
    return Duration.ofSeconds(3);
  }
}
