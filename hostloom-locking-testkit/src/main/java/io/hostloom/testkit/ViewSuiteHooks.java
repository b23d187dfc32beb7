package io.hostloom.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseSignal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The hooks both view suites ({@code semaphore.PermitViewSuite}, {@code
 * rwlock.ReadWriteViewsSuite}) give a backend module: new instances of the backend under test (the
 * suites open and close them), the short lease and how long its expiry may take, the key namespace
 * and the release signal's readiness. Not a suite itself.
 */
public abstract class ViewSuiteHooks {
  private final List<LockBackend> instances = new ArrayList<>();
  private LockBackend backend;
  private LockBackend other;

  /**
   * A new instance of the backend under test, over the same server as every other one; it
   * implements the suite's capability and offers its views. The suite opens one per test, and a
   * second one when a test asks for {@link #otherBackend()}, and closes them after the test ({@link
   * #closeBackend}). A backend whose callers in one JVM all share one instance (in-memory) may
   * answer the same object each time.
   */
  protected abstract LockBackend newBackend();

  /** Closes an instance {@link #newBackend()} made; default: closes it if {@link AutoCloseable}. */
  protected void closeBackend(LockBackend instance) throws Exception {
    Closing.ifCloseable(instance);
  }

  @BeforeEach
  final void openViewBackend() {
    backend = open();
  }

  @AfterEach
  final void closeViewBackends() throws Exception {
    other = null;
    Closing.all(instances, this::closeBackend);
  }

  /** The test's instance of the backend under test. */
  protected final LockBackend backend() {
    return backend;
  }

  /** A second instance on the same server (another process's view of the same keys). */
  protected final LockBackend otherBackend() {
    if (other == null) {
      other = open();
    }
    return other;
  }

  private LockBackend open() {
    LockBackend instance = newBackend();
    assertThat(instance).as("newBackend()").isNotNull();
    if (!instances.contains(instance)) {
      instances.add(instance);
    }
    return instance;
  }

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
