package io.hostloom.testkit;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseSignal;
import java.time.Duration;

/**
 * The hooks both view suites ({@code semaphore.PermitViewSuite}, {@code
 * rwlock.ReadWriteViewsSuite}) give a backend module: the backend under test, the short lease and
 * how long its expiry may take, the key namespace and the release signal's readiness. Not a suite
 * itself.
 */
public abstract class ViewSuiteHooks {

  /** The backend under test; implements the suite's capability and offers its views. */
  protected abstract LockBackend backend();

  /** A lease short enough to expire within {@link #expiryWait()}; 50 ms unless overridden. */
  protected Duration shortLease() {
    return Duration.ofMillis(50);
  }

  /**
   * How long to wait, on the backend's clock, for a short lease to expire; 10 s unless overridden.
   */
  protected Duration expiryWait() {
    return Duration.ofSeconds(10);
  }

  /** The namespace of the keys (and of the locks a suite builds). */
  protected String namespace() {
    return "viewsuite";
  }

  /**
   * Whether the backend announces view releases ({@link ReleaseSignal}); when false, the wake tests
   * are reported as aborted with that reason instead of passing.
   */
  protected boolean releaseSignal() {
    return backend() instanceof ReleaseSignal;
  }

  /** Waits until an instance's release signal is ready (e.g. a subscription confirmed). */
  protected void awaitSignalReady(LockBackend instance) {}

  /**
   * Waits until the waits just begun watch their key, so that a release right after is seen (a
   * polling backend's first poll, its baseline, answered); nothing unless overridden.
   */
  protected void awaitWaitsWatching(LockBackend instance) {}
}
