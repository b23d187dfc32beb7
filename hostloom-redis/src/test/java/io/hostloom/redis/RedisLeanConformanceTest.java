package io.hostloom.redis;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.LockBackendConformanceSuite;

/**
 * The backend contract with the lean settings (no fencing tokens, no release notifications): a
 * grant of a free key is a plain {@code SET NX PX}, everything else the acquire script. The suite's
 * token checks hold with token 1 only where it asks for strictly increasing tokens: see {@link
 * #fencingTokensIncrease()}.
 */
class RedisLeanConformanceTest extends LockBackendConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return RedisLockBackend.builder()
        .uri(RedisServerProcess.shared().uri())
        .fencingTokens(false)
        .releaseNotifications(false)
        .build();
  }

  @Override
  protected boolean fencingTokensIncrease() {
    return false;
  }
}
