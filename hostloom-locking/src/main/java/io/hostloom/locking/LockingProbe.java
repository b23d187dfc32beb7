package io.hostloom.locking;

import java.time.Duration;
import java.util.List;

/** Describes a lock's composition for start-up logs and diagnostics; never runs anything. */
public final class LockingProbe {
  private LockingProbe() {}

  /**
   * The composition of {@code lock}: everything for a {@link ComposedLock}; for any other {@link
   * DistributedLock} an empty namespace, its class name, enabled, zero durations and one line
   * saying nothing more is known. No backend is contacted.
   */
  public static LockDescription describe(DistributedLock lock) {
    if (lock instanceof ComposedLock c) {
      return c.describe();
    }
    String type = lock.getClass().getName();
    return new LockDescription(
        "",
        type,
        true,
        Duration.ZERO,
        Duration.ZERO,
        "",
        Duration.ZERO,
        List.of("lock " + type + " is not a ComposedLock; nothing more is known about it"));
  }
}
