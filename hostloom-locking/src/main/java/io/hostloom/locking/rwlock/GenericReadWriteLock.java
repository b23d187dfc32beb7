package io.hostloom.locking.rwlock;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockInterruptedException;
import io.hostloom.locking.LockKey;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.rwlock.ReadWriteHandle.Mode;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.support.KeyMappingLockBackend;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The generic {@link DistributedReadWriteLock}: a kernel {@link DistributedLock} over the lock's
 * own key space holds the write key and the reader slots as leases; {@link RwAcquisition} runs the
 * protocol. Thread-safe.
 */
final class GenericReadWriteLock implements DistributedReadWriteLock {
  // room for "/r/63" behind a name within the kernel's key length
  static final int SUFFIX_ROOM = 5;

  final DistributedLock kernel;
  final LockBackend backend;

  /**
   * The lock's keys: the kernel lease engine sees {@code <ns>:lock:<name>/w}, the backend {@code
   * <ns>:rwlock:<name>/w}, so they never meet a {@code DistributedLock}'s of the same namespace. A
   * name has no whitespace and a suffix is parsed from its last {@code /}, so two names never share
   * a key.
   */
  final KeyMappingLockBackend keys;

  final LockClock clock;
  final int slots;
  private final LockingOptions options;
  private final Set<RwAcquisition> inFlight = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final AtomicInteger readsHeld = new AtomicInteger();
  private final AtomicInteger writesHeld = new AtomicInteger();

  GenericReadWriteLock(DistributedReadWriteLock.Builder b) {
    this.options = b.options;
    this.backend = b.backend;
    this.keys =
        new KeyMappingLockBackend(
            b.backend, b.options.namespace() + ":lock:", b.options.namespace() + ":rwlock:");
    this.clock = b.clock;
    this.slots = b.readerSlots;
    this.kernel =
        DistributedLock.builder(b.options, keys).clock(b.clock).listener(b.listener).build();
  }

  /** The kernel key (as the lease engine is given it) of the write key. */
  static String writeKey(String name) {
    return name + "/w";
  }

  /** The kernel key of reader slot {@code slot}. */
  static String slotKey(String name, int slot) {
    return name + "/r/" + slot;
  }

  /** The backend key of the lock's fencing-token counter. */
  String tokenKey(String name) {
    return keys.targetKey(name + "/t");
  }

  /** The count behind {@link #held(Mode)}. */
  AtomicInteger heldCounter(Mode mode) {
    return mode == Mode.READ ? readsHeld : writesHeld;
  }

  @Override
  public int held(Mode mode) {
    return heldCounter(Objects.requireNonNull(mode, "mode")).get();
  }

  @Override
  public int readerSlots() {
    return slots;
  }

  /** The lease a grant asks for: the options' or the default, capped at max lease. */
  Duration lease(LockOptions o) {
    Duration l = o.lease().orElse(options.defaultLease());
    return l.compareTo(options.maxLease()) > 0 ? options.maxLease() : l;
  }

  private RwAcquisition start(String name, Mode mode, LockOptions o) {
    Objects.requireNonNull(o, "options");
    LockKey.validate(name, options.maxKeyLength() - SUFFIX_ROOM);
    checkOpen();
    RwAcquisition a = new RwAcquisition(this, name, mode, o);
    inFlight.add(a);
    if (closed.get()) {
      a.closedByLock();
    } else {
      a.start();
    }
    return a;
  }

  void finished(RwAcquisition a) {
    inFlight.remove(a);
  }

  private void checkOpen() {
    if (closed.get()) {
      throw closedException();
    }
  }

  IllegalStateException closedException() {
    return new IllegalStateException(
        "reader-writer lock for namespace '" + options.namespace() + "' is closed");
  }

  private Optional<ReadWriteHandle> blocking(RwAcquisition a) {
    try {
      return a.result().get();
    } catch (InterruptedException e) {
      a.result().cancel(false); // the acquisition releases what it holds or gets later
      Thread.currentThread().interrupt();
      throw LockInterruptedException.acquiring(a.name);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  private RwAcquisition startBlocking(String name, Mode mode, LockOptions o) {
    if (Thread.currentThread().isInterrupted()) {
      LockKey.validate(name, options.maxKeyLength() - SUFFIX_ROOM);
      throw LockInterruptedException.acquiring(name); // nothing sent
    }
    return start(name, mode, o);
  }

  private ReadWriteHandle orThrow(String name, Mode mode, LockOptions o) {
    RwAcquisition a = startBlocking(name, mode, o);
    return blocking(a)
        .orElseThrow(() -> LockNotAcquiredException.of(name, a.attempts(), a.waited()));
  }

  @Override
  public ReadWriteHandle acquireRead(String name, LockOptions o) {
    return orThrow(name, Mode.READ, o);
  }

  @Override
  public ReadWriteHandle acquireWrite(String name, LockOptions o) {
    return orThrow(name, Mode.WRITE, o);
  }

  @Override
  public Optional<ReadWriteHandle> tryAcquireRead(String name, LockOptions o) {
    return blocking(startBlocking(name, Mode.READ, o));
  }

  @Override
  public Optional<ReadWriteHandle> tryAcquireWrite(String name, LockOptions o) {
    return blocking(startBlocking(name, Mode.WRITE, o));
  }

  @Override
  public CompletableFuture<Optional<ReadWriteHandle>> tryAcquireReadAsync(
      String name, LockOptions o) {
    return start(name, Mode.READ, o).result();
  }

  @Override
  public CompletableFuture<Optional<ReadWriteHandle>> tryAcquireWriteAsync(
      String name, LockOptions o) {
    return start(name, Mode.WRITE, o).result();
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      for (RwAcquisition a : inFlight) {
        a.closedByLock();
      }
      kernel.close();
    }
  }

  @Override
  public String toString() {
    return "DistributedReadWriteLock[" + options.namespace() + ", " + slots + " reader slots]";
  }
}
