package io.hostloom.redis;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.virtualthreads.VirtualThreadExclusionSuite;
import java.util.OptionalInt;

/**
 * The kernel over Redis (a real redis-server) on virtual threads (this package: the backend's count
 * of release waits is package-private).
 */
class RedisVirtualThreadTest extends VirtualThreadExclusionSuite {
  @Override
  protected LockBackend newBackend() {
    return RedisLockBackend.builder().uri(RedisServerProcess.shared().uri()).build();
  }

  @Override
  protected OptionalInt pendingWaits(LockBackend backend) {
    return OptionalInt.of(((RedisLockBackend) backend).releaseWaiters());
  }
}
