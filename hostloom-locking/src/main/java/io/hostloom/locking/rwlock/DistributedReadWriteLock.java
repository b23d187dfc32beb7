package io.hostloom.locking.rwlock;

import io.hostloom.locking.LockBackendUnavailableException;
import io.hostloom.locking.LockEventListener;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockInterruptedException;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockedCallable;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.OnLost;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReadWriteLeases;
import io.hostloom.locking.time.LockClock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A distributed reader-writer lock per name: many readers or one writer. Every grant is a handle
 * ({@link ReadWriteHandle}) backed by one of the kernel's leases, so a read or write handle has the
 * guarantees of a {@link io.hostloom.locking.DistributedLock} handle: its own owner token, a lease
 * counted from the request, {@link LockHandle#lost()}, extension (manual or {@code autoExtend}),
 * the hold policy of {@link LockOptions}, and a release that is owner-checked. Natively over a
 * backend that implements {@link ReadWriteLeases} and offers views (Redis): one backend operation
 * per grant. Otherwise built over any {@link LockBackend} from its five operations; correct on a
 * backend whose operations are linearizable (every HostLoom backend; see the module README for the
 * argument). All processes of a name must use the same construction (the same backend type).
 *
 * <p><b>Writer preference.</b> Native: a writer refused because readers hold is recorded as
 * waiting, and from then on no new reader is granted; a write acquisition that ends without a grant
 * removes that record. Generic: a writer first takes the name's <em>write key</em>; from then on no
 * new reader is granted (readers that find the write key held back off and retry per the options'
 * policy), and the writer waits until the readers already in have released or their leases ended.
 * So a stream of readers cannot starve a writer: once its write key is granted, at most {@link
 * Builder#readerSlots(int) readerSlots} read grants (those already in) come before it. Readers can
 * wait behind a stream of writers.
 *
 * <p><b>Fencing tokens.</b> Every write handle's {@link LockHandle#fencingToken()} is strictly
 * larger than the token of every read or write handle granted before that write was requested, so a
 * resource that remembers the largest token it saw rejects a writer that was overtaken. A read's
 * token is at least the token of every write granted before the read was requested; readers may
 * share a token. Tokens come from the backend's per-key token (see its README for when it may
 * repeat).
 *
 * <p><b>Readers per name</b> are bounded by {@link Builder#readerSlots(int)}: with every slot taken
 * a reader waits like one that finds a writer.
 *
 * <p><b>Blocking, timeout and interruption</b> as for the lock: blocking methods wait on the lock's
 * clock; a busy name is retried per the options' {@link LockOptions#retry() retry policy}, bounded
 * by {@link LockOptions#maxWait() maxWait} over the whole acquisition (the writer's wait for
 * readers included; {@code maxWait = 0} is one try of each step, no waiting). If the calling thread
 * is interrupted, the wait is abandoned, the interrupt flag is set again and {@link
 * LockInterruptedException} is thrown; whatever the acquisition holds or is later granted is
 * released. The {@code *Async} forms never block; cancelling their future is the same as
 * interrupting.
 *
 * <p><b>Outcomes.</b> Contention: {@code tryAcquire*} returns empty, the others throw {@link
 * LockNotAcquiredException}. A backend failure is {@link LockBackendUnavailableException}, never
 * retried. A closed lock throws {@link IllegalStateException}. Re-entrancy is not detected: a
 * thread that asks for the write lock while it holds a read lock of the same name waits for itself
 * until its {@code maxWait} or retry budget ends.
 *
 * <p><b>Loss.</b> A handle is lost exactly when its kernel lease is (expiry on the local clock,
 * refused or late extension, refused release): {@link LockHandle#lost()} completes, {@link
 * LockHandle#isHeld()} turns false. A writer's exclusion and its token order hold only while it is
 * held.
 *
 * <p><b>Implementation considerations.</b> Native: one view key {@code <namespace>:rwlock:<name>}
 * per name (its layout in the backend's README). Generic: backend keys {@code
 * <namespace>:rwlock:<name>/w} (write key), {@code .../r/<i>} (reader slots) and {@code .../t} (the
 * token key). Either way apart from the lock's {@code <namespace>:lock:} keys; round trips per
 * grant are listed in the kernel's README.
 */
public interface DistributedReadWriteLock extends AutoCloseable {

  /**
   * Acquires {@code name} for reading, retrying per the options; blocks until granted or given up.
   *
   * @throws LockNotAcquiredException when a writer or full reader slots kept it busy
   * @throws LockBackendUnavailableException when the backend failed
   * @throws LockInterruptedException when interrupted while waiting
   */
  ReadWriteHandle acquireRead(String name, LockOptions options);

  /**
   * Acquires {@code name} for writing: the write key, then the wait for readers already in.
   *
   * @throws LockNotAcquiredException when other writers or the readers kept it busy
   * @throws LockBackendUnavailableException when the backend failed
   * @throws LockInterruptedException when interrupted while waiting
   */
  ReadWriteHandle acquireWrite(String name, LockOptions options);

  /** {@link #acquireRead}, with contention as an empty result instead of an exception. */
  Optional<ReadWriteHandle> tryAcquireRead(String name, LockOptions options);

  /** {@link #acquireWrite}, with contention as an empty result instead of an exception. */
  Optional<ReadWriteHandle> tryAcquireWrite(String name, LockOptions options);

  /**
   * {@link #tryAcquireRead(String, LockOptions)} without blocking; contention completes it empty.
   */
  CompletableFuture<Optional<ReadWriteHandle>> tryAcquireReadAsync(
      String name, LockOptions options);

  /**
   * {@link #tryAcquireWrite(String, LockOptions)} without blocking; contention completes it empty.
   */
  CompletableFuture<Optional<ReadWriteHandle>> tryAcquireWriteAsync(
      String name, LockOptions options);

  /**
   * Acquires for reading, runs {@code action} on the calling thread and releases in a {@code
   * finally}. With {@link OnLost#CANCEL} a loss interrupts the calling thread while the action runs
   * (the flag is cleared when it ends).
   *
   * @throws LockNotAcquiredException when the name stayed busy
   * @throws LockBackendUnavailableException when the backend failed
   * @throws LockInterruptedException when interrupted while acquiring
   * @throws X what the action throws
   */
  default <T, X extends Exception> T executeWithReadLock(
      String name, LockOptions options, LockedCallable<T, X> action) throws X {
    Objects.requireNonNull(action, "action");
    return HeldAction.run(acquireRead(name, options), options.onLost(), action);
  }

  /** As {@link #executeWithReadLock}, holding the write lock. */
  default <T, X extends Exception> T executeWithWriteLock(
      String name, LockOptions options, LockedCallable<T, X> action) throws X {
    Objects.requireNonNull(action, "action");
    return HeldAction.run(acquireWrite(name, options), options.onLost(), action);
  }

  /** Reader slots per name (a builder setting). */
  int readerSlots();

  /**
   * The handles of {@code mode} granted by this lock in this process, of every name, and neither
   * closed nor lost: what the {@code hostloom.rwlock.held} gauge of {@code hostloom-micrometer}
   * shows. A local count for observability, never a coordination answer.
   */
  int held(ReadWriteHandle.Mode mode);

  /**
   * Closes the lock: acquisitions in flight end with {@link IllegalStateException} and release what
   * they hold; later calls throw {@link IllegalStateException}; handles already granted keep
   * working. Leaves the backend open. Idempotent; never throws.
   */
  @Override
  void close();

  /** A reader-writer lock over {@code backend} on the system clock. */
  static DistributedReadWriteLock create(LockingOptions options, LockBackend backend) {
    return builder(options, backend).build();
  }

  /** A builder for a lock with its own clock, listener or number of reader slots. */
  static Builder builder(LockingOptions options, LockBackend backend) {
    return new Builder(options, backend);
  }

  /** Builds the reader-writer lock: native over {@link ReadWriteLeases} views, else generic. */
  final class Builder {
    /** Default reader slots per name. */
    public static final int DEFAULT_READER_SLOTS = 8;

    /** Most reader slots per name: a writer reads every slot once per acquisition. */
    public static final int MAX_READER_SLOTS = 64;

    final LockingOptions options;
    final LockBackend backend;
    LockClock clock = LockClock.system();
    LockEventListener listener = LockEventListener.NO_OP;
    int readerSlots = DEFAULT_READER_SLOTS;

    private Builder(LockingOptions options, LockBackend backend) {
      this.options = Objects.requireNonNull(options, "options");
      this.backend = Objects.requireNonNull(backend, "backend");
    }

    /** The clock for every deadline, lease and retry delay. Default {@link LockClock#system()}. */
    public Builder clock(LockClock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Receives the events of the kernel leases behind the handles (keys {@code <name>/w}, {@code
     * <name>/r/<i>}; native: {@code <name>}). Default {@link LockEventListener#NO_OP}.
     */
    public Builder listener(LockEventListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * How many readers can hold one name at once, 1 to {@value #MAX_READER_SLOTS}. Default {@value
     * #DEFAULT_READER_SLOTS}. Every lock instance on a name must use the same value: a writer only
     * waits for the slots it knows.
     */
    public Builder readerSlots(int readerSlots) {
      if (readerSlots < 1 || readerSlots > MAX_READER_SLOTS) {
        throw new IllegalArgumentException(
            "readerSlots must be 1.." + MAX_READER_SLOTS + " but was " + readerSlots);
      }
      this.readerSlots = readerSlots;
      return this;
    }

    /**
     * Builds the lock.
     *
     * @throws IllegalArgumentException listing every problem {@link LockingOptions#validate()}
     *     finds, or when locking is disabled (a reader-writer lock has no single-instance mode)
     */
    public DistributedReadWriteLock build() {
      if (!options.enabled()) {
        throw new IllegalArgumentException(
            "a reader-writer lock needs locking enabled (" + LockingOptions.KEY_ENABLED + ")");
      }
      options.requireValid();
      if (backend instanceof ReadWriteLeases rw) {
        Optional<ReadWriteLeases.Views> views = rw.readWriteViews(readerSlots);
        if (views.isPresent()) {
          return new NativeReadWriteLock(this, views.get());
        }
      }
      return new GenericReadWriteLock(this);
    }
  }
}
