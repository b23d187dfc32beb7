package io.hostloom.locking.semaphore;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.support.KeyMappingLockBackend;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The backend as the kernel's lock sees it for semaphores with {@code permits} permits. Generic
 * (over the backend's own operations): the lock's keys {@code <ns>:lock:<name>#<slot>} become
 * {@code <ns>:semaphore:<name>#<slot>}. Native (over a {@link io.hostloom.locking.spi.PermitLeases}
 * view): the lock's key {@code <ns>:lock:<name>} becomes the view's {@code <ns>:semaphore:<name>},
 * one key per semaphore. Either way the mapping is {@link KeyMappingLockBackend}'s, for every
 * operation; every grant stores the permit count as its data, and an acquire refused by a holder
 * that stored another count fails with {@link PermitCountMismatchException} (the kernel reports it
 * as a backend failure of kind {@code OTHER}, whose cause the semaphore unwraps).
 */
final class SlotBackend extends KeyMappingLockBackend {
  static final String DATA_PREFIX = "hostloom-semaphore;permits=";

  private final int permits;
  private final String data;
  private final boolean nativeView;

  /** Generic: {@code backend} is the user's backend, keys carry the slot. */
  SlotBackend(LockBackend backend, String namespace, int permits) {
    this(backend, namespace, permits, false);
  }

  /**
   * @param nativeView whether {@code backend} is a permit view (keys name the semaphore) or the
   *     user's backend (keys name a slot)
   */
  SlotBackend(LockBackend backend, String namespace, int permits, boolean nativeView) {
    super(backend, namespace + ":lock:", slotPrefix(namespace));
    this.permits = permits;
    this.data = DATA_PREFIX + permits;
    this.nativeView = nativeView;
  }

  private static String slotPrefix(String namespace) {
    return namespace + ":semaphore:";
  }

  /** The lock key of a slot, as given to the kernel's lock. */
  static String lockKey(String name, int slot) {
    return name + "#" + slot;
  }

  /**
   * The backend key of a slot, as a {@link io.hostloom.locking.spi.ReleaseSignal} knows it: what a
   * {@code SlotBackend} of {@code namespace} maps the slot's lock key to.
   */
  static String backendKey(String namespace, String name, int slot) {
    return slotPrefix(namespace) + lockKey(name, slot);
  }

  /** The view key of a native semaphore: what a native {@code SlotBackend} maps {@code name} to. */
  static String nativeKey(String namespace, String name) {
    return slotPrefix(namespace) + name;
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String ignored, Duration lease) {
    return super.acquire(key, owner, data, lease)
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
    String k = suffixOf(key);
    if (nativeView) {
      return k;
    }
    int hash = k.lastIndexOf('#');
    return hash < 0 ? k : k.substring(0, hash);
  }
}
