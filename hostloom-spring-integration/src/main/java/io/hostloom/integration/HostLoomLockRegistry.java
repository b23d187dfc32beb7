package io.hostloom.integration;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockKey;
import io.hostloom.locking.LockOptions;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.integration.support.locks.RenewableLockRegistry;

/**
 * A Spring Integration {@link RenewableLockRegistry} over any HostLoom {@link DistributedLock} (so
 * over any backend): {@code obtain(key)} returns the same {@link HostLoomLock} for equal keys,
 * reentrant for its owning thread, exclusive across registries (processes) through the lock's
 * lease, with fencing tokens and a lost-lease signal. See {@link HostLoomLock} for the exact
 * semantics.
 *
 * <p>Keys are {@code String.valueOf(lockKey)} and must be valid HostLoom keys (no whitespace or
 * control characters, at most the lock's {@code maxKeyLength}); an invalid one throws {@link
 * IllegalArgumentException} from {@code obtain}.
 *
 * <p>One registry per process and lock: two registries in one process over locks of the same
 * namespace and backend exclude each other like two processes do.
 */
public final class HostLoomLockRegistry implements RenewableLockRegistry {
  /** The lease of each grant and renewal unless set: Spring Integration's Redis registry's 60 s. */
  public static final Duration DEFAULT_LEASE = Duration.ofSeconds(60);

  private final DistributedLock lock;
  private final Duration lease;
  private final LockOptions waitOptions;
  private final Map<String, HostLoomLock> locks = new ConcurrentHashMap<>();

  private HostLoomLockRegistry(Builder b) {
    this.lock = b.lock;
    this.lease = b.lease;
    this.waitOptions = LockOptions.builder().lease(b.lease).autoExtend(b.autoExtend).build();
  }

  /** A registry over {@code lock} with the default lease and no automatic extension. */
  public static HostLoomLockRegistry of(DistributedLock lock) {
    return builder(lock).build();
  }

  public static Builder builder(DistributedLock lock) {
    return new Builder(lock);
  }

  /** The lease requested with each grant and renewal. */
  public Duration lease() {
    return lease;
  }

  @Override
  public HostLoomLock obtain(Object lockKey) {
    String key = String.valueOf(Objects.requireNonNull(lockKey, "lockKey"));
    LockKey.validate(key, Integer.MAX_VALUE);
    return locks.computeIfAbsent(key, k -> new HostLoomLock(lock, k, waitOptions, lease));
  }

  /**
   * Renews the lease of a lock this registry holds, from any thread.
   *
   * @throws IllegalStateException when this registry does not hold the lock or the backend refused
   *     the renewal (its lease is lost)
   */
  @Override
  public void renewLock(Object lockKey) {
    renewLock(lockKey, lease);
  }

  /**
   * Renews with another lease (Spring Integration 7 declares this method; 6.5 does not, hence no
   * {@code @Override}).
   *
   * @throws IllegalStateException as {@link #renewLock(Object)}
   */
  public void renewLock(Object lockKey, Duration lease) {
    HostLoomLock l = locks.get(String.valueOf(lockKey));
    if (l == null) {
      throw new IllegalStateException(
          "lock '" + lockKey + "' was never obtained from this registry");
    }
    l.renew(lease);
  }

  @Override
  public String toString() {
    return "HostLoomLockRegistry[lease=" + lease + ", locks=" + locks.size() + "]";
  }

  /** Builds a {@link HostLoomLockRegistry}. */
  public static final class Builder {
    private final DistributedLock lock;
    private Duration lease = DEFAULT_LEASE;
    private boolean autoExtend;

    private Builder(DistributedLock lock) {
      this.lock = Objects.requireNonNull(lock, "lock");
    }

    /** The lease of each grant and renewal (default {@link #DEFAULT_LEASE}); positive. */
    public Builder lease(Duration lease) {
      if (lease.isNegative() || lease.isZero()) {
        throw new IllegalArgumentException("lease must be positive, but was " + lease);
      }
      this.lease = lease;
      return this;
    }

    /**
     * Let the kernel extend held leases by itself (heartbeats at half the lease, stopped after the
     * lock's {@code maxHold}); default off, as renewal is the caller's with {@link #renewLock}.
     */
    public Builder autoExtend(boolean autoExtend) {
      this.autoExtend = autoExtend;
      return this;
    }

    public HostLoomLockRegistry build() {
      return new HostLoomLockRegistry(this);
    }
  }
}
