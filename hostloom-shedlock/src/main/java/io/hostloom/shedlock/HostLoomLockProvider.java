package io.hostloom.shedlock;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockBackendUnavailableException;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockInterruptedException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.support.LockException;

/**
 * A ShedLock {@link net.javacrumbs.shedlock.core.LockProvider} (and {@link ExtensibleLockProvider})
 * over a HostLoom {@link DistributedLock}, whatever its backend: memory, Redis, PostgreSQL, Azure
 * Blob. An application using {@code @SchedulerLock} switches its store by replacing its {@code
 * LockProvider} bean with this one; {@code LockAssert} and {@code LockExtender} keep working.
 *
 * <p><b>Semantics (ShedLock's).</b> {@code lock} is one {@link DistributedLock#tryAcquire} attempt
 * and never retries: empty when another owner holds the name. {@code lockAtMostFor} is the lease,
 * counted by the <em>backend's</em> clock from when the request is handled (so instances' clock
 * skew cannot double-grant); the lock caps it at its {@code maxLease}. {@code lockAtLeastFor} is
 * the lock's {@link LockOptions#minimumHold() minimum hold}: {@code unlock} before it sets the
 * lease to the rest of it; after it, {@code unlock} releases. {@code extend} sets a new lease of
 * {@code lockAtMostFor} from now ({@link LockHandle#extend}) and returns the lock that replaces
 * this one (ShedLock then refuses the old one); its {@code lockAtLeastFor}, counted from the
 * extension, replaces the minimum hold ({@link LockHandle#holdAtLeast}), as in ShedLock's own
 * providers. Owner tokens are the lock's, so a lock never releases or extends another's lease.
 *
 * <p><b>Failures.</b> A backend call that fails, or whose answer does not come within the call
 * timeout, throws ShedLock's {@code LockException} from {@code lock} and {@code extend} (ShedLock
 * then does not run the task); an interrupt does the same, with the flag set again. An acquisition
 * that failed after the backend may have applied it (a timeout) is released by the lock, so the
 * task is not blocked for {@code lockAtMostFor}. A failed {@code unlock} is logged by the lock
 * (3104) and not thrown: the lease ends by itself, never before {@code lockAtLeastFor}.
 *
 * <p>Keys: {@code shedlock:<name>} in the lock, so {@code <namespace>:lock:shedlock:<name>} on the
 * backend.
 */
public final class HostLoomLockProvider implements ExtensibleLockProvider {
  /** The default bound on the wait for one backend answer. */
  public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(30);

  /** The prefix of the lock keys. */
  public static final String KEY_PREFIX = "shedlock:";

  private static final Duration MIN_LEASE = Duration.ofMillis(1);

  private final DistributedLock lock;
  private final Duration callTimeout;

  private HostLoomLockProvider(Builder b) {
    this.lock = b.lock;
    this.callTimeout = b.callTimeout;
  }

  /** A provider over {@code lock} with the default call timeout. */
  public HostLoomLockProvider(DistributedLock lock) {
    this(builder(lock));
  }

  public static Builder builder(DistributedLock lock) {
    return new Builder(lock);
  }

  @Override
  public Optional<SimpleLock> lock(LockConfiguration config) {
    String key = KEY_PREFIX + config.getName();
    LockOptions options =
        LockOptions.builder()
            .lease(lease(config.getLockAtMostFor()))
            .minimumHold(config.getLockAtLeastFor())
            .autoExtend(false)
            .retry(LockRetryPolicy.immediate(0))
            .maxWait(callTimeout) // one attempt, its answer awaited at most this long
            .build();
    try {
      return lock.tryAcquire(key, options).map(h -> new HostLoomLock(config, h));
    } catch (LockBackendUnavailableException e) {
      throw new LockException("acquire of '" + key + "' failed: " + e.getMessage(), e);
    } catch (LockInterruptedException e) {
      throw new LockException("acquire of '" + key + "' interrupted", e);
    }
  }

  /** The backend key of the lock {@code name} (for a lock built by the kernel), for diagnostics. */
  public String keyOf(String name) {
    String namespace = lock.options().map(LockingOptions::namespace).orElse("");
    return namespace + ":lock:" + KEY_PREFIX + name;
  }

  private static Duration lease(Duration d) {
    return d.compareTo(MIN_LEASE) < 0 ? MIN_LEASE : d;
  }

  /** One granted lock; single use (ShedLock's {@link AbstractSimpleLock} checks reuse). */
  private final class HostLoomLock extends AbstractSimpleLock {
    private final LockHandle handle;

    HostLoomLock(LockConfiguration config, LockHandle handle) {
      super(config);
      this.handle = handle;
    }

    @Override
    protected void doUnlock() {
      handle.close(); // the lock keeps the lease until lockAtLeastFor, or releases
    }

    @Override
    protected Optional<SimpleLock> doExtend(LockConfiguration newConfig) {
      boolean extended;
      try {
        extended = handle.extend(lease(newConfig.getLockAtMostFor()));
      } catch (LockInterruptedException e) {
        throw new LockException("extend of '" + handle.key() + "' interrupted", e);
      }
      if (extended) {
        // ShedLock's rule: the extension's lockAtLeastFor, from now, replaces the lock's
        handle.holdAtLeast(newConfig.getLockAtLeastFor());
        return Optional.of(new HostLoomLock(newConfig, handle));
      }
      if (handle.isHeld()) { // not refused: the call failed, the lease keeps its end
        throw new LockException("extend of '" + handle.key() + "' failed on the backend");
      }
      return Optional.empty();
    }

    @Override
    public String toString() {
      return "HostLoomLock["
          + lockConfiguration.getName()
          + ", token="
          + handle.fencingToken()
          + "]";
    }
  }

  /** Builder of {@link HostLoomLockProvider}. */
  public static final class Builder {
    private final DistributedLock lock;
    private Duration callTimeout = DEFAULT_CALL_TIMEOUT;

    private Builder(DistributedLock lock) {
      this.lock = Objects.requireNonNull(lock, "lock");
    }

    /** Default {@link HostLoomLockProvider#DEFAULT_CALL_TIMEOUT}; positive. */
    public Builder callTimeout(Duration callTimeout) {
      Objects.requireNonNull(callTimeout, "callTimeout");
      if (callTimeout.isNegative() || callTimeout.isZero()) {
        throw new IllegalArgumentException("callTimeout must be positive but was " + callTimeout);
      }
      this.callTimeout = callTimeout;
      return this;
    }

    public HostLoomLockProvider build() {
      return new HostLoomLockProvider(this);
    }
  }
}
