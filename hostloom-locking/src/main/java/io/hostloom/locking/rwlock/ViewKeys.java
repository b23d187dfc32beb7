package io.hostloom.locking.rwlock;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.spi.support.KeyMappingLockBackend;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A native reader-writer view as the kernel's lease engine sees it: its key {@code
 * <ns>:lock:<name>} becomes the view's {@code <ns>:rwlock:<name>}, one key per lock name. {@link
 * #of} adds the backend's release signal for the mapped key, so the engine's waits wake on the
 * views' releases instead of polling.
 */
class ViewKeys extends KeyMappingLockBackend {

  ViewKeys(LockBackend view, String namespace) {
    super(view, namespace + ":lock:", namespace + ":rwlock:");
  }

  /** {@code view} with mapped keys, signalled by {@code signal} when it is not null. */
  static ViewKeys of(LockBackend view, String namespace, ReleaseSignal signal) {
    return signal == null ? new ViewKeys(view, namespace) : new Signalled(view, namespace, signal);
  }

  private static final class Signalled extends ViewKeys implements ReleaseSignal {
    private final ReleaseSignal signal;

    Signalled(LockBackend view, String namespace, ReleaseSignal signal) {
      super(view, namespace);
      this.signal = signal;
    }

    @Override
    public CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait) {
      return signal.awaitRelease(mapKey(key), maxWait);
    }
  }
}
