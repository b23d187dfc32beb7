package io.hostloom.locking;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What {@link DistributedLock#describe} knows about a lock, without contacting its backend.
 *
 * @param namespace the namespace, empty when unknown
 * @param backend the backend's name, {@code (disabled)} in single-instance mode, or the lock's
 *     class name when unknown
 * @param enabled whether the lock coordinates through a backend
 * @param defaultLease the default lease, zero when unknown
 * @param maxLease the lease cap, zero when unknown
 * @param retry the default retry policy's description, empty when unknown
 * @param maxWait the default policy's {@link LockRetryPolicy#maxTotalDelay()}, zero when unknown
 * @param lines human-readable lines, each naming its {@code hostloom.locking.*} key
 */
public record LockDescription(
    String namespace,
    String backend,
    boolean enabled,
    Duration defaultLease,
    Duration maxLease,
    String retry,
    Duration maxWait,
    List<String> lines) {
  public LockDescription {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(backend, "backend");
    Objects.requireNonNull(defaultLease, "defaultLease");
    Objects.requireNonNull(maxLease, "maxLease");
    Objects.requireNonNull(retry, "retry");
    Objects.requireNonNull(maxWait, "maxWait");
    lines = List.copyOf(lines);
  }

  /** A lock that is not one of the kernel's: only its class name is known. */
  static LockDescription unknown(String type) {
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

  /** The description of a kernel lock over {@code backendName}. */
  static LockDescription of(LockingOptions options, String backendName, boolean releaseSignal) {
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
