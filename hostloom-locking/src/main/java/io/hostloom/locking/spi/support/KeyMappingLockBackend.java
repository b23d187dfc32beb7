package io.hostloom.locking.spi.support;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link LockBackend} that moves the keys of a {@code DistributedLock} to another keyspace of the
 * same backend: every key that starts with {@code fromPrefix} (e.g. {@code <ns>:lock:}) is passed
 * to the delegate with that prefix replaced by {@code toPrefix} (e.g. {@code <ns>:semaphore:});
 * other keys pass unchanged. All five operations map their key the same way; owners, data, leases,
 * outcomes and failures are the delegate's. {@link #name()} is the delegate's.
 *
 * <p>The primitives built on the kernel's lock (semaphore, reader-writer lock) use it so their keys
 * never meet a plain lock's of the same namespace. It implements neither {@link
 * io.hostloom.locking.spi.ReleaseSignal} nor {@link io.hostloom.locking.spi.BackendHealthProbe}: a
 * caller that subscribes to releases or checks health does so on the delegate, with the keys of
 * {@link #mapKey(String)} or {@link #targetKey(String)}, so one mapping serves both paths. The
 * prefixes must not be prefixes of one another's keys in a way that makes two keys meet; with
 * distinct segment names ({@code :lock:} and {@code :rwlock:}) they cannot.
 *
 * <p>Subclasses may override an operation (the semaphore stamps its permit count on grants) and
 * call {@code super}. Thread safety is that of the delegate.
 */
public class KeyMappingLockBackend extends DelegatingLockBackend {
  private final LockBackend backend;
  private final String fromPrefix;
  private final String toPrefix;

  /**
   * @param backend the backend keys are mapped for
   * @param fromPrefix the prefix of the keys to move, as the caller gives them
   * @param toPrefix the prefix those keys get on {@code backend}
   */
  public KeyMappingLockBackend(LockBackend backend, String fromPrefix, String toPrefix) {
    this.backend = Objects.requireNonNull(backend, "backend");
    this.fromPrefix = Objects.requireNonNull(fromPrefix, "fromPrefix");
    this.toPrefix = Objects.requireNonNull(toPrefix, "toPrefix");
  }

  /** The delegate's key of {@code key}: {@code toPrefix} in place of {@code fromPrefix}. */
  public final String mapKey(String key) {
    return key.startsWith(fromPrefix) ? toPrefix + key.substring(fromPrefix.length()) : key;
  }

  /** The delegate's key for {@code suffix}, i.e. {@code mapKey(fromPrefix + suffix)}. */
  public final String targetKey(String suffix) {
    return toPrefix + suffix;
  }

  /** {@code key} without {@code fromPrefix}, or {@code key} when it has no such prefix. */
  protected final String suffixOf(String key) {
    return key.startsWith(fromPrefix) ? key.substring(fromPrefix.length()) : key;
  }

  @Override
  protected final LockBackend delegate() {
    return backend;
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    return backend.acquire(mapKey(key), owner, data, lease);
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    return backend.extend(mapKey(key), owner, lease);
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    return backend.release(mapKey(key), owner);
  }

  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    return backend.replace(mapKey(key), expectedOwner, newOwner, newData, lease);
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    return backend.read(mapKey(key));
  }

  @Override
  public String name() {
    return backend.name();
  }
}
