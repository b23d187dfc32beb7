package io.hostloom.testkit;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.testing.ForwardingLockBackend;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A backend without its native view capabilities ({@link io.hostloom.locking.spi.PermitLeases},
 * {@link io.hostloom.locking.spi.ReadWriteLeases}): semaphores and reader-writer locks over it use
 * the generic constructions, so a backend module can run its conformance suites on both paths. The
 * five operations are forwarded; the {@link ReleaseSignal} is kept when the backend has one (and
 * only then, since the kernel asks {@code instanceof}); {@link #close()} closes the backend when it
 * is {@link AutoCloseable}.
 */
public class WithoutNativeViews extends ForwardingLockBackend implements AutoCloseable {

  private WithoutNativeViews(LockBackend backend) {
    super(backend);
  }

  /** {@code backend} without its views; a release signal of its own is kept. */
  public static WithoutNativeViews of(LockBackend backend) {
    return backend instanceof ReleaseSignal signal
        ? new Signalling(backend, signal)
        : new WithoutNativeViews(backend);
  }

  /** Closes the wrapped backend when it is {@link AutoCloseable}. */
  @Override
  public void close() throws Exception {
    if (delegate instanceof AutoCloseable c) {
      c.close();
    }
  }

  @Override
  public String toString() {
    return "WithoutNativeViews[" + delegate + "]";
  }

  private static final class Signalling extends WithoutNativeViews implements ReleaseSignal {
    private final ReleaseSignal signal;

    Signalling(LockBackend backend, ReleaseSignal signal) {
      super(backend);
      this.signal = signal;
    }

    @Override
    public CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait) {
      return signal.awaitRelease(key, maxWait);
    }
  }
}
