package io.hostloom.locking;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Describes a lock's composition for start-up logs and diagnostics; never runs anything. */
public final class LockingProbe {
  private LockingProbe() {}

  /**
   * The composition of {@code lock}: everything for a lock built by {@link DistributedLock#create}
   * or {@link DistributedLock#builder}; for any other {@link DistributedLock} an empty namespace,
   * its class name, enabled, zero durations and one line saying nothing more is known. No backend
   * is contacted.
   */
  public static LockDescription describe(DistributedLock lock) {
    if (lock instanceof KernelLock k) {
      return k.describe();
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
        List.of(
            "lock " + type + " is not one of the kernel's locks; nothing more is known about it"));
  }

  /**
   * The options {@code lock} was built with, when it was built by {@link DistributedLock#create} or
   * {@link DistributedLock#builder}; empty for any other implementation. Lets a component check its
   * own settings against the lock's (e.g. a lease above the lock's max lease).
   */
  public static Optional<LockingOptions> options(DistributedLock lock) {
    return lock instanceof KernelLock k ? Optional.of(k.options()) : Optional.empty();
  }

  /** The description of a kernel lock over {@code backendName}. */
  static LockDescription describe(
      LockingOptions options, String backendName, boolean releaseSignal) {
    boolean enabled = options.enabled();
    LockRetryPolicy retry = options.retry();
    Duration maxWait = retry.maxTotalDelay();
    List<String> lines = new ArrayList<>(7);
    lines.add(LockingOptions.KEY_NAMESPACE + " = " + options.namespace());
    lines.add("backend = " + backendName + ", " + LockingOptions.KEY_ENABLED + " = " + enabled);
    lines.add(
        LockingOptions.KEY_DEFAULT_LEASE
            + " = "
            + options.defaultLease()
            + ", "
            + LockingOptions.KEY_MAX_LEASE
            + " = "
            + options.maxLease()
            + ", "
            + LockingOptions.KEY_MAX_HOLD
            + " = "
            + options.maxHold()
            + (options.strictMaxHold() ? " (strict)" : ""));
    lines.add(
        LockingOptions.KEY_RETRY
            + " = "
            + retry.description()
            + ", derived max wait "
            + maxWait.toMillis()
            + " ms");
    lines.add(LockingOptions.KEY_AUTO_EXTEND + " = " + options.autoExtend());
    lines.add(LockingOptions.KEY_DETECT_REENTRANCY + " = " + options.detectReentrancy());
    lines.add(
        LockingOptions.KEY_WAKE_ON_RELEASE
            + " = "
            + options.wakeOnRelease()
            + (releaseSignal
                ? " (the backend signals releases: a release also starts an attempt that uses no retry;"
                    + " polling as fallback)"
                : enabled && options.wakeOnRelease()
                    ? " (the backend has no release signal: retry waits poll)"
                    : " (retry waits poll)"));
    return new LockDescription(
        options.namespace(),
        backendName,
        enabled,
        options.defaultLease(),
        options.maxLease(),
        retry.description(),
        maxWait,
        lines);
  }
}
