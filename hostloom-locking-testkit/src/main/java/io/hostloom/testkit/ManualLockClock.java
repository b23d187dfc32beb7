package io.hostloom.testkit;

import java.time.Instant;

/**
 * The manual clock under its old name.
 *
 * @deprecated moved to the kernel jar as {@link io.hostloom.locking.testing.ManualLockClock} (the
 *     kernel's own tests need it); this subclass only keeps existing tests compiling.
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public final class ManualLockClock extends io.hostloom.locking.testing.ManualLockClock {
  public ManualLockClock() {
    super();
  }

  public ManualLockClock(Instant epoch) {
    super(epoch);
  }
}
