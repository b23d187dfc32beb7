package io.hostloom.locking.rwlock;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockKey;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.rwlock.ReadWriteHandle.Mode;
import io.hostloom.locking.spi.ReadWriteLeases;
import io.hostloom.locking.spi.ReleaseSignal;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The native {@link DistributedReadWriteLock}, over a backend's {@link ReadWriteLeases} views: one
 * kernel {@link DistributedLock} per view holds reads and writes as leases of one key per name
 * ({@code <ns>:rwlock:<name>}), so a grant is one backend call and writer preference, exclusion and
 * tokens are the backend's atomic answer. A write acquisition that ends without a grant removes the
 * waiting entry its refused attempts left ({@link WaitingWriters}). Thread-safe.
 */
final class NativeReadWriteLock implements DistributedReadWriteLock {
  private final LockingOptions options;
  private final int slots;
  private final DistributedLock reads;
  private final DistributedLock writes;
  private final WaitingWriters writers;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final AtomicInteger readsHeld = new AtomicInteger();
  private final AtomicInteger writesHeld = new AtomicInteger();

  NativeReadWriteLock(DistributedReadWriteLock.Builder b, ReadWriteLeases.Views views) {
    this.options = b.options;
    this.slots = b.readerSlots;
    String ns = b.options.namespace();
    ReleaseSignal signal =
        b.options.wakeOnRelease() && b.backend instanceof ReleaseSignal s ? s : null;
    this.writers = new WaitingWriters(views.write());
    this.reads =
        DistributedLock.builder(b.options, ViewKeys.of(views.read(), ns, signal))
            .clock(b.clock)
            .listener(b.listener)
            .build();
    this.writes =
        DistributedLock.builder(b.options, ViewKeys.of(writers, ns, signal))
            .clock(b.clock)
            .listener(b.listener)
            .build();
  }

  @Override
  public int readerSlots() {
    return slots;
  }

  @Override
  public int held(Mode mode) {
    return counter(Objects.requireNonNull(mode, "mode")).get();
  }

  private AtomicInteger counter(Mode mode) {
    return mode == Mode.READ ? readsHeld : writesHeld;
  }

  private void check(String name, LockOptions o) {
    Objects.requireNonNull(o, "options");
    // the generic construction's limit, so a name is valid on both
    LockKey.validate(name, options.maxKeyLength() - GenericReadWriteLock.SUFFIX_ROOM);
    if (closed.get()) {
      throw new IllegalStateException(
          "reader-writer lock for namespace '" + options.namespace() + "' is closed");
    }
  }

  private ReadWriteHandle handle(LockHandle lease, String name, Mode mode) {
    return new FencedHandle(lease, name, mode, lease.fencingToken(), counter(mode));
  }

  // ---------------------------------------------------------------- read

  @Override
  public ReadWriteHandle acquireRead(String name, LockOptions o) {
    check(name, o);
    return handle(reads.acquire(name, o), name, Mode.READ);
  }

  @Override
  public Optional<ReadWriteHandle> tryAcquireRead(String name, LockOptions o) {
    check(name, o);
    return reads.tryAcquire(name, o).map(h -> handle(h, name, Mode.READ));
  }

  @Override
  public CompletableFuture<Optional<ReadWriteHandle>> tryAcquireReadAsync(
      String name, LockOptions o) {
    check(name, o);
    return relay(reads.tryAcquireAsync(name, o), name, Mode.READ, null);
  }

  // ---------------------------------------------------------------- write

  @Override
  public ReadWriteHandle acquireWrite(String name, LockOptions o) {
    check(name, o);
    WaitingWriters.Writer w = WaitingWriters.begin();
    LockHandle h = startWrite(w, () -> writes.acquire(name, o));
    writers.granted(w);
    return handle(h, name, Mode.WRITE);
  }

  @Override
  public Optional<ReadWriteHandle> tryAcquireWrite(String name, LockOptions o) {
    check(name, o);
    WaitingWriters.Writer w = WaitingWriters.begin();
    Optional<LockHandle> h = startWrite(w, () -> writes.tryAcquire(name, o));
    if (h.isEmpty()) {
      awaitCleanup(writers.gaveUp(w));
      return Optional.empty();
    }
    writers.granted(w);
    return Optional.of(handle(h.get(), name, Mode.WRITE));
  }

  @Override
  public CompletableFuture<Optional<ReadWriteHandle>> tryAcquireWriteAsync(
      String name, LockOptions o) {
    check(name, o);
    WaitingWriters.Writer w = WaitingWriters.begin();
    return relay(startWrite(w, () -> writes.tryAcquireAsync(name, o)), name, Mode.WRITE, w);
  }

  /**
   * Runs {@code attempt} as writer {@code w}'s start. When it throws, {@code w}'s waiting entry is
   * given up: a "not acquired" is thrown once that is done (so the caller does not meet its own
   * entry), any other failure (interrupted, failed, closed) at once, the clean-up going on in the
   * background.
   */
  private <T> T startWrite(WaitingWriters.Writer w, Supplier<T> attempt) {
    try {
      return attempt.get();
    } catch (LockNotAcquiredException e) {
      awaitCleanup(writers.gaveUp(w));
      throw e;
    } catch (RuntimeException e) {
      var unused = writers.gaveUp(w);
      throw e;
    } finally {
      WaitingWriters.started();
    }
  }

  /**
   * Waits for a given-up writer's cleanup, so that a caller told "not acquired" does not meet its
   * own waiting entry; bounded by the backend's call timeout. An interrupt ends the wait early and
   * stays set.
   */
  private static void awaitCleanup(CompletableFuture<Void> cleaned) {
    try {
      cleaned.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      // best effort: the entry expires on the backend's clock
    }
  }

  /**
   * The kernel's future as the caller's: a grant becomes a handle; cancelling the caller's future
   * abandons the kernel's (whose late grant the kernel releases); a write that ends without a grant
   * cleans up its waiting entry, and "not acquired" is answered once that is done.
   */
  private CompletableFuture<Optional<ReadWriteHandle>> relay(
      CompletableFuture<Optional<LockHandle>> k, String name, Mode mode, WaitingWriters.Writer w) {
    CompletableFuture<Optional<ReadWriteHandle>> result = new CompletableFuture<>();
    var unused =
        result.whenComplete(
            (v, e) -> {
              if (e != null) {
                k.cancel(false);
              }
            });
    var unused2 =
        k.whenComplete(
            (h, e) -> {
              if (e != null) {
                if (w != null) {
                  var unused3 = writers.gaveUp(w);
                }
                result.completeExceptionally(
                    e instanceof CompletionException && e.getCause() != null ? e.getCause() : e);
              } else if (h.isEmpty()) {
                if (w == null) {
                  result.complete(Optional.empty());
                } else {
                  var unused3 =
                      writers.gaveUp(w).whenComplete((v, e2) -> result.complete(Optional.empty()));
                }
              } else {
                if (w != null) {
                  writers.granted(w);
                }
                ReadWriteHandle handle = handle(h.get(), name, mode);
                if (!result.complete(Optional.of(handle))) {
                  handle.closeAsync(); // the caller gave up at this moment
                }
              }
            });
    return result;
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      reads.close();
      writes.close();
    }
  }

  @Override
  public String toString() {
    return "DistributedReadWriteLock[" + options.namespace() + ", native, " + slots + " readers]";
  }
}
