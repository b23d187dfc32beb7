package io.hostloom.quarkus.internal;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.time.LockClock;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The extension's beans: the {@link LockClock} (system time unless the application defines one) and
 * the {@link DistributedLock} (the application's own bean replaces it). Both live as long as the
 * application; {@link HostLoomRuntime} closes the lock.
 */
@Singleton
public class HostLoomProducers {
  @Produces
  @Singleton
  @DefaultBean
  LockClock hostloomLockClock() {
    return LockClock.system();
  }

  @Produces
  @Singleton
  @DefaultBean
  DistributedLock distributedLock(HostLoomRuntime runtime) {
    return runtime.lock();
  }
}
