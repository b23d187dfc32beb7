package io.hostloom.locking.rwlock;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.locking.spi.support.DelegatingLockBackend;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The reader-writer keys of one namespace: the kernel lease engine behind the handles sees {@code
 * <ns>:lock:<name>/w}, and this backend moves every such key to {@code <ns>:rwlock:<name>/w}, so
 * the lock's keys never meet a {@code DistributedLock}'s of the same namespace. A name has no
 * whitespace and a suffix is parsed from its last {@code /}, so two names never share a key.
 */
final class Keyspace extends DelegatingLockBackend {
  private final LockBackend backend;
  private final String kernelPrefix;
  private final String rwPrefix;

  Keyspace(LockBackend backend, String namespace) {
    this.backend = backend;
    this.kernelPrefix = namespace + ":lock:";
    this.rwPrefix = namespace + ":rwlock:";
  }

  /** The kernel key (as the lease engine is given it) of the write key. */
  static String writeKey(String name) {
    return name + "/w";
  }

  static String slotKey(String name, int slot) {
    return name + "/r/" + slot;
  }

  /** The backend key of one of the lock's kernel keys, for direct reads and token draws. */
  String backendKey(String kernelKey) {
    return rwPrefix + kernelKey;
  }

  String tokenKey(String name) {
    return rwPrefix + name + "/t";
  }

  private String map(String key) {
    return key.startsWith(kernelPrefix) ? rwPrefix + key.substring(kernelPrefix.length()) : key;
  }

  @Override
  protected LockBackend delegate() {
    return backend;
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    return backend.acquire(map(key), owner, data, lease);
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    return backend.extend(map(key), owner, lease);
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    return backend.release(map(key), owner);
  }

  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    return backend.replace(map(key), expectedOwner, newOwner, newData, lease);
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    return backend.read(map(key));
  }

  @Override
  public String name() {
    return backend.name();
  }
}
