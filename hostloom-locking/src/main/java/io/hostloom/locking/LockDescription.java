package io.hostloom.locking;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What {@link LockingProbe#describe} knows about a lock, without contacting its backend.
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
}
