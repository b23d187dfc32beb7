package io.hostloom.shedlock;

import io.hostloom.locking.LockKey;
import io.hostloom.locking.spi.LockBackend;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ShedLock {@link net.javacrumbs.shedlock.core.LockProvider} (and {@link ExtensibleLockProvider})
 * over any HostLoom {@link LockBackend}: memory, Redis, PostgreSQL, Azure Blob. An application
 * using {@code @SchedulerLock} switches its store by replacing its {@code LockProvider} bean with
 * this one; {@code LockAssert} and {@code LockExtender} keep working.
 *
 * <p><b>Semantics (ShedLock's).</b> {@code lock} makes one backend call and never waits: empty when
 * another owner holds the name. {@code lockAtMostFor} is the lease, counted by the
 * <em>backend's</em> clock from when the request is handled (so instances' clock skew cannot
 * double-grant). On {@code unlock}, a lock held shorter than {@code lockAtLeastFor} (measured on
 * this JVM's monotonic clock from the lock request) is kept until then: its lease is set to the
 * rest of {@code lockAtLeastFor}; otherwise it is released. {@code extend} sets a new lease of
 * {@code lockAtMostFor} from now and returns the lock that replaces this one (ShedLock then refuses
 * the old one). Each lock has a 128-bit random owner token, so a lock never releases or extends
 * another's lease.
 *
 * <p><b>Failures.</b> A backend call that fails or does not answer within the call timeout throws
 * ShedLock's {@code LockException} from {@code lock} and {@code extend} (ShedLock then does not run
 * the task); an interrupt ends the wait the same way, with the flag set again. A failed {@code
 * unlock} is logged and not thrown: the lease ends by itself at {@code lockAtMostFor}, and the
 * at-least guarantee holds because the lease is never shortened below it.
 *
 * <p>Keys on the backend: {@code <namespace>:shedlock:<name>}.
 */
public final class HostLoomLockProvider implements ExtensibleLockProvider {
  /** The default namespace of the keys. */
  public static final String DEFAULT_NAMESPACE = "shedlock";

  /** The default bound on the wait for one backend answer. */
  public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(30);

  private static final Duration MIN_LEASE = Duration.ofMillis(1);
  private static final Logger LOG = LoggerFactory.getLogger(HostLoomLockProvider.class);

  private final BackendCalls calls;
  private final String prefix;
  private final SecureRandom random = new SecureRandom();

  private HostLoomLockProvider(Builder b) {
    this.calls = new BackendCalls(b.backend, b.callTimeout);
    this.prefix = b.namespace + ":shedlock:";
  }

  /** A provider with the {@value #DEFAULT_NAMESPACE} namespace. */
  public HostLoomLockProvider(LockBackend backend) {
    this(builder(backend));
  }

  public static Builder builder(LockBackend backend) {
    return new Builder(backend);
  }

  @Override
  public Optional<SimpleLock> lock(LockConfiguration config) {
    String key = prefix + config.getName();
    String owner = newOwner();
    long requested = System.nanoTime();
    long token = calls.acquire(key, owner, lease(config.getLockAtMostFor()));
    if (token == 0) {
      return Optional.empty();
    }
    return Optional.of(new HostLoomLock(config, key, owner, requested, token));
  }

  /** The backend key of the lock {@code name}, for tests and diagnostics. */
  public String keyOf(String name) {
    return prefix + name;
  }

  private String newOwner() {
    byte[] b = new byte[16];
    random.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  private static Duration lease(Duration d) {
    return d.compareTo(MIN_LEASE) < 0 ? MIN_LEASE : d;
  }

  /** One granted lock; single use (ShedLock's {@link AbstractSimpleLock} checks reuse). */
  private final class HostLoomLock extends AbstractSimpleLock {
    private final String key;
    private final String owner;
    private final long requested;
    private final long fencingToken;

    HostLoomLock(
        LockConfiguration config, String key, String owner, long requested, long fencingToken) {
      super(config);
      this.key = key;
      this.owner = owner;
      this.requested = requested;
      this.fencingToken = fencingToken;
    }

    @Override
    protected void doUnlock() {
      Duration heldFor = Duration.ofNanos(System.nanoTime() - requested);
      Duration keep = lockConfiguration.getLockAtLeastFor().minus(heldFor);
      try {
        boolean done =
            keep.compareTo(MIN_LEASE) >= 0
                ? calls.extend(key, owner, keep)
                : calls.release(key, owner);
        if (!done) {
          LOG.warn(
              "ShedLock lock '{}' (token {}) was no longer held when unlocked: its lease had ended",
              lockConfiguration.getName(),
              fencingToken);
        }
      } catch (RuntimeException e) {
        LOG.warn(
            "ShedLock unlock of '{}' failed; the lease ends by itself within lockAtMostFor",
            lockConfiguration.getName(),
            e);
      }
    }

    @Override
    protected Optional<SimpleLock> doExtend(LockConfiguration newConfig) {
      long now = System.nanoTime();
      if (!calls.extend(key, owner, lease(newConfig.getLockAtMostFor()))) {
        return Optional.empty();
      }
      return Optional.of(new HostLoomLock(newConfig, key, owner, now, fencingToken));
    }

    @Override
    public String toString() {
      return "HostLoomLock[" + lockConfiguration.getName() + ", token=" + fencingToken + "]";
    }
  }

  /** Builder of {@link HostLoomLockProvider}. */
  public static final class Builder {
    private final LockBackend backend;
    private String namespace = DEFAULT_NAMESPACE;
    private Duration callTimeout = DEFAULT_CALL_TIMEOUT;

    private Builder(LockBackend backend) {
      this.backend = Objects.requireNonNull(backend, "backend");
    }

    /**
     * Default {@value HostLoomLockProvider#DEFAULT_NAMESPACE}; lowercase letters, digits, dashes.
     */
    public Builder namespace(String namespace) {
      Objects.requireNonNull(namespace, "namespace");
      if (!LockKey.isValidNamespace(namespace)) {
        throw new IllegalArgumentException("not a valid namespace: '" + namespace + "'");
      }
      this.namespace = namespace;
      return this;
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
