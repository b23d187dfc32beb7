package io.hostloom.locking.semaphore;

import io.hostloom.locking.LockEventListener;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.time.LockClock;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The semaphores of one namespace over one {@link LockBackend}: {@link #semaphore(String, int)}
 * hands out a {@link DistributedSemaphore} per name and permit count. Permits are kernel leases on
 * the keys {@code <namespace>:semaphore:<name>#<slot>}, a key space apart from the locks' {@code
 * <namespace>:lock:<key>}; when the backend object implements {@link
 * io.hostloom.locking.spi.PermitLeases} and offers a view, they are entries of its one key {@code
 * <namespace>:semaphore:<name>} per semaphore instead (native: one backend call per attempt, see
 * the module README). Thread-safe; one instance per namespace is enough.
 *
 * <p>The {@link LockingOptions} are those of the kernel's lock (default lease, max lease, max hold,
 * retry, auto-extend, wake-on-release, max key length); {@code enabled = false} gives
 * single-instance mode, whose permits are placeholders granted at once. The kernel's lock events
 * (keys {@code <name>#<slot>}, native: {@code <name>}) go to the builder's listener, so the lock's
 * meters count permits too.
 */
public interface DistributedSemaphores extends AutoCloseable {

  /**
   * The semaphore {@code name} with {@code permits} permits. Never contacts the backend; cheap, so
   * callers need not cache it.
   *
   * @throws IllegalArgumentException when {@code name} breaks the lock's key rules or {@code
   *     permits} is not positive
   * @throws IllegalStateException when this factory is closed
   */
  DistributedSemaphore semaphore(String name, int permits);

  /**
   * The namespace: slot keys are {@code <namespace>:semaphore:<name>#<slot>} (native: one key
   * {@code <namespace>:semaphore:<name>}).
   */
  String namespace();

  /**
   * Permits granted through this factory in this process and neither released nor lost yet (each
   * counted down exactly once, on its loss or its release); the placeholders of single-instance
   * mode are not counted. Non-blocking; never contacts the backend. For gauges.
   */
  int permitsHeld();

  /**
   * Closes the factory: acquisitions in flight end with {@link IllegalStateException}, later calls
   * throw it; permits already granted keep working. Never closes the backend. Idempotent; never
   * throws.
   */
  @Override
  void close();

  /**
   * Semaphores over {@code backend} on the system clock.
   *
   * @throws IllegalArgumentException when {@code options.validate()} finds problems
   */
  static DistributedSemaphores create(LockingOptions options, LockBackend backend) {
    return builder(options, backend).build();
  }

  /** A builder for semaphores with their own clock, listener or logger. */
  static Builder builder(LockingOptions options, LockBackend backend) {
    return new Builder(options, backend);
  }

  /** Builds {@link DistributedSemaphores}; the same settings as the lock's builder. */
  final class Builder {
    final LockingOptions options;
    final LockBackend backend;
    LockClock clock = LockClock.system();
    LockEventListener listener = LockEventListener.NO_OP;
    Logger logger;

    private Builder(LockingOptions options, LockBackend backend) {
      this.options = Objects.requireNonNull(options, "options");
      this.backend = backend;
    }

    /** The clock for every deadline, retry delay and timer. Default {@link LockClock#system()}. */
    public Builder clock(LockClock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Receives the kernel's events of every permit. Default {@link LockEventListener#NO_OP}. */
    public Builder listener(LockEventListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** The logger. Default: the lock's default logger. */
    public Builder logger(Logger logger) {
      this.logger = Objects.requireNonNull(logger, "logger");
      return this;
    }

    /**
     * Builds the semaphores.
     *
     * @throws IllegalArgumentException listing every problem {@link LockingOptions#validate()}
     *     finds
     * @throws NullPointerException when locking is enabled and there is no backend
     */
    public DistributedSemaphores build() {
      options.requireValid();
      if (options.enabled()) {
        Objects.requireNonNull(backend, "backend (required when locking is enabled)");
      }
      return new SlotSemaphores(
          this,
          logger != null
              ? logger
              : LoggerFactory.getLogger(io.hostloom.locking.DistributedLock.DEFAULT_LOGGER));
    }
  }
}
