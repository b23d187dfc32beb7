package io.hostloom.integration;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockKey;
import io.hostloom.locking.LockOptions;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiFunction;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.integration.support.locks.ExpirableLockRegistry;
import org.springframework.integration.support.locks.RenewableLockRegistry;
import org.springframework.scheduling.TaskScheduler;

/**
 * A Spring Integration {@link ExpirableLockRegistry} and {@link RenewableLockRegistry} over any
 * HostLoom {@link DistributedLock} (so over any backend), a drop-in for Spring Integration's {@code
 * RedisLockRegistry}: {@code obtain(key)} returns the same {@link HostLoomLock} for equal keys
 * while it is cached, reentrant for its owning thread, exclusive across registries (processes)
 * through the lock's lease, with fencing tokens and a lost-lease signal. With Spring Integration 7
 * the locks are its {@code DistributedLock} (a lease per call). See {@link HostLoomLock} for the
 * exact semantics.
 *
 * <p><b>Cache.</b> Locks are kept in a least-recently-obtained map of at most {@link
 * #setCacheCapacity cacheCapacity} entries (default {@value #DEFAULT_CACHE_CAPACITY}, the Redis
 * registry's); beyond it {@code obtain} evicts locks no thread of this process holds or is
 * acquiring, and throws {@link CannotAcquireLockException} when every cached lock is in use. {@link
 * #expireUnusedOlderThan} removes unused locks last granted (or created) at least that long ago. An
 * evicted lock throws {@link CannotAcquireLockException} when locked again: obtain a fresh one.
 *
 * <p><b>Renewal.</b> {@link #renewLock} renews from any thread. With {@link
 * #setRenewalTaskScheduler} every grant is renewed on that scheduler every third of its lease until
 * unlocked or lost; {@code builder.autoExtend(true)} lets the kernel extend instead.
 *
 * <p>Keys are {@code String.valueOf(lockKey)} and must be valid HostLoom keys (no whitespace or
 * control characters, at most the lock's {@code maxKeyLength}); an invalid one throws {@link
 * IllegalArgumentException} from {@code obtain}.
 *
 * <p>One registry per process and lock: two registries in one process over locks of the same
 * namespace and backend exclude each other like two processes do. Thread-safe.
 */
@SuppressWarnings("rawtypes") // raw so that 6.5 (non-generic) and 7 (generic) both fit
public final class HostLoomLockRegistry implements ExpirableLockRegistry, RenewableLockRegistry {
  /** The lease of each grant and renewal unless set: Spring Integration's Redis registry's 60 s. */
  public static final Duration DEFAULT_LEASE = Duration.ofSeconds(60);

  /** The default cache capacity: Spring Integration's Redis registry's. */
  public static final int DEFAULT_CACHE_CAPACITY = 100_000;

  /** The default pause between the attempts of a timed {@code tryLock}: the Redis registry's. */
  public static final Duration DEFAULT_IDLE_BETWEEN_TRIES = Duration.ofMillis(100);

  /** Makes the locks: 7's {@code DistributedLock} when that interface is on the classpath. */
  private static final BiFunction<HostLoomLockRegistry, String, HostLoomLock> LOCKS = lockFactory();

  private final DistributedLock lock;
  private final Duration lease;
  private final boolean autoExtend;
  private final ReentrantLock cacheLock = new ReentrantLock();
  private final Map<String, HostLoomLock> locks = new LinkedHashMap<>(16, 0.75f, true);
  private volatile int cacheCapacity = DEFAULT_CACHE_CAPACITY;
  private volatile Duration idleBetweenTries = DEFAULT_IDLE_BETWEEN_TRIES;
  private volatile TaskScheduler renewalScheduler;

  private HostLoomLockRegistry(Builder b) {
    this.lock = b.lock;
    this.lease = b.lease;
    this.autoExtend = b.autoExtend;
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

  /**
   * Returns the lock of {@code lockKey}, creating it when not cached.
   *
   * @throws CannotAcquireLockException when the cache is full of locks in use in this process
   * @throws IllegalArgumentException when the key is not a valid HostLoom key
   */
  @Override
  public HostLoomLock obtain(Object lockKey) {
    String key = String.valueOf(Objects.requireNonNull(lockKey, "lockKey"));
    LockKey.validate(key, Integer.MAX_VALUE);
    cacheLock.lock();
    try {
      HostLoomLock l = locks.computeIfAbsent(key, this::newLock);
      if (locks.size() > cacheCapacity) {
        trim(cacheCapacity, l);
        if (locks.size() > cacheCapacity) {
          locks.remove(key);
          throw new CannotAcquireLockException(
              "There are already "
                  + cacheCapacity
                  + " unique locks acquired in the application from "
                  + this
                  + ". Cannot obtain more at the moment.");
        }
      }
      return l;
    } finally {
      cacheLock.unlock();
    }
  }

  /** Evicts the least recently obtained unused locks (never {@code keep}) down to {@code max}. */
  private void trim(int max, HostLoomLock keep) {
    Iterator<HostLoomLock> eldestFirst = locks.values().iterator();
    while (locks.size() > max && eldestFirst.hasNext()) {
      HostLoomLock l = eldestFirst.next();
      if (l != keep && !l.isAcquiredInThisProcess()) {
        eldestFirst.remove();
      }
    }
  }

  private HostLoomLock newLock(String key) {
    return LOCKS.apply(this, key);
  }

  /** Removes cached locks not in use in this process and last granted at least {@code age} ago. */
  @Override
  public void expireUnusedOlderThan(long age) {
    long now = System.currentTimeMillis();
    cacheLock.lock();
    try {
      locks.values().removeIf(l -> now - l.lastUsedMillis() >= age && !l.isAcquiredInThisProcess());
    } finally {
      cacheLock.unlock();
    }
  }

  /**
   * The number of cached locks (default {@value #DEFAULT_CACHE_CAPACITY}); when more are cached,
   * the least recently obtained unused ones are evicted at once.
   *
   * @throws IllegalArgumentException when not positive
   */
  public void setCacheCapacity(int cacheCapacity) {
    if (cacheCapacity <= 0) {
      throw new IllegalArgumentException(
          "cacheCapacity must be positive, but was " + cacheCapacity);
    }
    cacheLock.lock();
    try {
      this.cacheCapacity = cacheCapacity;
      trim(cacheCapacity, null);
    } finally {
      cacheLock.unlock();
    }
  }

  /** The number of locks currently cached. */
  public int cachedLocks() {
    cacheLock.lock();
    try {
      return locks.size();
    } finally {
      cacheLock.unlock();
    }
  }

  /** The pause between the attempts of a timed {@code tryLock} (default 100 ms); not negative. */
  public void setIdleBetweenTries(Duration idleBetweenTries) {
    if (idleBetweenTries.isNegative()) {
      throw new IllegalArgumentException(
          "idleBetweenTries must not be negative, but was " + idleBetweenTries);
    }
    this.idleBetweenTries = idleBetweenTries;
  }

  /**
   * Renews every grant made after this call on {@code scheduler}, every third of its lease, until
   * it is unlocked or its lease is lost (a failed renewal keeps the lease end and is tried again at
   * the next step).
   */
  @SuppressWarnings("MissingOverride") // a default method in 7; not declared by every 6.x
  public void setRenewalTaskScheduler(TaskScheduler scheduler) {
    this.renewalScheduler = Objects.requireNonNull(scheduler, "scheduler");
  }

  /**
   * Renews the lease of a lock this registry holds, from any thread.
   *
   * @throws IllegalStateException ("Could not renew mutex at ...") when this registry does not hold
   *     the lock, the backend refused the renewal (its lease is lost) or the backend call failed
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
  @SuppressWarnings("MissingOverride")
  public void renewLock(Object lockKey, Duration lease) {
    HostLoomLock l;
    cacheLock.lock();
    try {
      l = locks.get(String.valueOf(lockKey));
    } finally {
      cacheLock.unlock();
    }
    if (l == null) {
      throw new IllegalStateException("Could not renew mutex at " + lockKey);
    }
    l.renew(lease);
  }

  boolean isCurrent(HostLoomLock l) {
    cacheLock.lock();
    try {
      return locks.get(l.key()) == l;
    } finally {
      cacheLock.unlock();
    }
  }

  DistributedLock distributedLock() {
    return lock;
  }

  Duration idleBetweenTries() {
    return idleBetweenTries;
  }

  /** The options of one acquisition: the kernel's retry policy when waiting, else one attempt. */
  LockOptions options(Duration grantLease, boolean waiting) {
    LockOptions.Builder b = LockOptions.builder().lease(grantLease).autoExtend(autoExtend);
    if (!waiting) {
      b.maxWait(Duration.ZERO);
    }
    return b.build();
  }

  ScheduledFuture<?> scheduleRenewal(HostLoomLock l, Duration grantLease) {
    TaskScheduler s = renewalScheduler;
    if (s == null) {
      return null;
    }
    Duration step = grantLease.dividedBy(3);
    return s.scheduleWithFixedDelay(
        l::renewScheduled, Instant.now().plus(step), step.isZero() ? Duration.ofMillis(1) : step);
  }

  @Override
  public String toString() {
    return "HostLoomLockRegistry[lease=" + lease + ", locks=" + cachedLocks() + "]";
  }

  // by name: the -Pspring-integration-6 build compiles without HostLoomDistributedLock
  private static BiFunction<HostLoomLockRegistry, String, HostLoomLock> lockFactory() {
    ClassLoader loader = HostLoomLockRegistry.class.getClassLoader();
    try {
      Class.forName("org.springframework.integration.support.locks.DistributedLock", false, loader);
      MethodHandle create =
          MethodHandles.lookup()
              .findStatic(
                  Class.forName("io.hostloom.integration.HostLoomDistributedLock", true, loader),
                  "create",
                  MethodType.methodType(
                      HostLoomLock.class, HostLoomLockRegistry.class, String.class));
      return (registry, key) -> {
        try {
          return (HostLoomLock) create.invoke(registry, key);
        } catch (Throwable e) {
          throw new IllegalStateException("cannot create the lock of '" + key + "'", e);
        }
      };
    } catch (ReflectiveOperationException | LinkageError e) {
      return HostLoomLock::new; // Spring Integration 6.x
    }
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
     * lock's {@code maxHold}); default off, as renewal is the caller's with {@link #renewLock} or
     * the {@link #setRenewalTaskScheduler renewal scheduler}.
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
