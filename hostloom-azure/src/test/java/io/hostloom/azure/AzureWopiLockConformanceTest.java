package io.hostloom.azure;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.wopi.WopiLockConformanceSuite;

/**
 * The WOPI lock suite over the Azure backend against a real Azurite, with the suite's 3 s expiry.
 */
class AzureWopiLockConformanceTest extends WopiLockConformanceSuite {
  private static final String CONTAINER =
      Azurite.shared().newContainer("wopi").getBlobContainerName();

  @Override
  protected LockBackend newBackend() {
    return Azurite.shared().backend(CONTAINER).build();
  }
}
