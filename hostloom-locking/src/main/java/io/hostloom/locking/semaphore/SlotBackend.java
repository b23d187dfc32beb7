package io.hostloom.locking.semaphore;

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
 * The backend as the kernel's lock sees it for the slots of semaphores with {@code permits}
 * permits: the lock's keys {@code <ns>:lock:<name>#<slot>} become {@code
 * <ns>:semaphore:<name>#<slot>}, every grant stores the permit count as its data, and an acquire
 * refused by a holder that stored another count fails with {@link PermitCountMismatchException}
 * (the kernel reports it as a backend failure of kind {@code OTHER}, whose cause the semaphore
 * unwraps).
 */
final class SlotBackend extends DelegatingLockBackend {
  static final String DATA_PREFIX = "hostloom-semaphore;permits=";

  private final LockBackend backend;
  private final String lockPrefix;
  private final String slotPrefix;
  private final int permits;
  private final String data;

  SlotBackend(LockBackend backend, String namespace, int permits) {
    this.backend = backend;
    this.lockPrefix = namespace + ":lock:";
    this.slotPrefix = namespace + ":semaphore:";
    this.permits = permits;
    this.data = DATA_PREFIX + permits;
  }

  /** The lock key of a slot, as given to the kernel's lock. */
  static String lockKey(String name, int slot) {
    return name + "#" + slot;
  }

  /** The backend key of a slot, as a {@link io.hostloom.locking.spi.ReleaseSignal} knows it. */
  static String backendKey(String namespace, String name, int slot) {
    return namespace + ":semaphore:" + lockKey(name, slot);
  }

  @Override
  protected LockBackend delegate() {
    return backend;
  }

  @Override
  public String name() {
    return backend.name();
  }

  private String map(String key) {
    return key.startsWith(lockPrefix) ? slotPrefix + key.substring(lockPrefix.length()) : key;
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String ignored, Duration lease) {
    return backend
        .acquire(map(key), owner, data, lease)
        .thenCompose(
            o -> {
              int other = o.holder().map(h -> permitsOf(h.data())).orElse(permits);
              return other == permits
                  ? CompletableFuture.completedFuture(o)
                  : CompletableFuture.failedFuture(
                      PermitCountMismatchException.of(nameOf(key), permits, other));
            });
  }

  /** The count stored by a semaphore grant; {@code permits} for data no semaphore wrote. */
  private int permitsOf(String stored) {
    if (!stored.startsWith(DATA_PREFIX)) {
      return permits;
    }
    try {
      return Integer.parseInt(stored.substring(DATA_PREFIX.length()));
    } catch (NumberFormatException e) {
      return permits;
    }
  }

  private String nameOf(String key) {
    String k = key.startsWith(lockPrefix) ? key.substring(lockPrefix.length()) : key;
    int hash = k.lastIndexOf('#');
    return hash < 0 ? k : k.substring(0, hash);
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
}
