package io.hostloom.locking.semaphore;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.support.KeyMappingLockBackend;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The backend as the kernel's lock sees it for the slots of semaphores with {@code permits}
 * permits: the lock's keys {@code <ns>:lock:<name>#<slot>} become {@code
 * <ns>:semaphore:<name>#<slot>} (the mapping is {@link KeyMappingLockBackend}'s, for every
 * operation), every grant stores the permit count as its data, and an acquire refused by a holder
 * that stored another count fails with {@link PermitCountMismatchException} (the kernel reports it
 * as a backend failure of kind {@code OTHER}, whose cause the semaphore unwraps).
 */
final class SlotBackend extends KeyMappingLockBackend {
  static final String DATA_PREFIX = "hostloom-semaphore;permits=";

  private final int permits;
  private final String data;

  SlotBackend(LockBackend backend, String namespace, int permits) {
    super(backend, namespace + ":lock:", slotPrefix(namespace));
    this.permits = permits;
    this.data = DATA_PREFIX + permits;
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
    int hash = k.lastIndexOf('#');
    return hash < 0 ? k : k.substring(0, hash);
  }
}
