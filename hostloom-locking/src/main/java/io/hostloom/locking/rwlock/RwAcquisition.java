package io.hostloom.locking.rwlock;

import io.hostloom.locking.LockBackendUnavailableException;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.rwlock.ReadWriteHandle.Mode;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * One read or write acquisition: a sequence of backend steps, each started by the previous one's
 * reply or by a retry timer on the lock's clock, so nothing blocks a backend or timer thread.
 *
 * <p><b>Read:</b> take a free reader slot (a kernel lease, one try per slot from a random one),
 * read the write key, draw a token; if the write key is held, give the slot back and retry (later
 * tries read the write key before taking a slot). <b>Write:</b> take the write key (a kernel lease,
 * the kernel retrying among writers), read every reader slot until each was seen free once (slots
 * taken after that belong to readers that will see the write key and back off), draw a token that
 * must be a new grant.
 *
 * <p><b>Why exclusion holds</b> on linearizable operations: a reader reads the write key after its
 * slot was granted; a writer reads the slots after its write key was granted. If the reader's read
 * comes first, the reader's slot was granted before the writer's read of that slot, which sees it
 * (or waits until it is gone). Otherwise the reader's read comes after the write key's grant and
 * sees it. Leases are checked on the local clock (which never outlasts the backend's lease) right
 * before a handle is given out.
 *
 * <p><b>Tokens</b> come from one token key per name: a writer's draw is a new grant (strictly
 * larger than every earlier one); a reader's is either a new grant or the live holder's token
 * (never larger than the next grant). A reader draws while it holds its slot and after it saw the
 * write key free, so every write granted after that draw drained the slot first and drew later.
 */
final class RwAcquisition {
  private static final Duration TOKEN_LEASE = Duration.ofSeconds(5);

  private final GenericReadWriteLock lock;
  final String name;
  private final Mode mode;
  private final LockOptions options;
  private final LockOptions oneTry;
  private final LockClock clock;
  private final LockRetryPolicy retry;
  private final long startNanos;
  private final long maxWaitNanos; // -1: none
  private final CompletableFuture<Optional<ReadWriteHandle>> result = new CompletableFuture<>();

  // guarded by this
  private LockHandle held; // the write key or slot this acquisition holds and has not handed out
  private LockClock.Timer timer;
  private int busy; // busy rounds seen, each one followed by a retry delay
  private long endNanos = -1;

  RwAcquisition(GenericReadWriteLock lock, String name, Mode mode, LockOptions options) {
    this.lock = lock;
    this.name = name;
    this.mode = mode;
    this.options = options;
    this.oneTry = options.toBuilder().maxWait(Duration.ZERO).build();
    this.clock = lock.clock;
    this.retry = options.retry().orElse(lock.kernel.options().orElseThrow().retry());
    this.startNanos = clock.nanoTime();
    this.maxWaitNanos = options.maxWait().map(RwAcquisition::nanos).orElse(-1L);
    result.whenComplete((h, e) -> finish());
  }

  CompletableFuture<Optional<ReadWriteHandle>> result() {
    return result;
  }

  synchronized int attempts() {
    return busy + 1;
  }

  synchronized Duration waited() {
    return Duration.ofNanos((endNanos < 0 ? clock.nanoTime() : endNanos) - startNanos);
  }

  void start() {
    if (mode == Mode.READ) {
      takeSlot(ThreadLocalRandom.current().nextInt(lock.slots), 0);
    } else {
      takeWriteKey();
    }
  }

  void closedByLock() {
    result.completeExceptionally(lock.closedException());
  }

  /** Runs once the result is decided (granted, not acquired, failed, cancelled, closed). */
  private void finish() {
    LockHandle drop;
    synchronized (this) {
      endNanos = clock.nanoTime();
      drop = held;
      held = null;
      if (timer != null) {
        timer.cancel();
        timer = null;
      }
    }
    if (drop != null) {
      drop.closeAsync();
    }
    lock.finished(this);
  }

  /** Keeps {@code h} to release if the acquisition ends; false (and released) when it has. */
  private boolean keep(LockHandle h) {
    synchronized (this) {
      if (!result.isDone()) {
        held = h;
        return true;
      }
    }
    h.closeAsync();
    return false;
  }

  /** Gives back what is held (a slot that met a writer, a lost lease) before a retry. */
  private void giveBack() {
    LockHandle drop;
    synchronized (this) {
      drop = held;
      held = null;
    }
    if (drop != null) {
      drop.closeAsync();
    }
  }

  // ---------------------------------------------------------------- read

  /** Reads the write key; {@code onFree} or {@code onHeld} runs with the answer. */
  private void whenWriteKey(Runnable onFree, Runnable onHeld) {
    lock.backend
        .read(lock.keys.targetKey(GenericReadWriteLock.writeKey(name)))
        .whenComplete(
            (w, e) -> {
              if (e != null) {
                fail(e);
              } else if (w.isPresent()) {
                onHeld.run();
              } else {
                onFree.run();
              }
            });
  }

  private void readRetry() {
    whenWriteKey(
        () -> takeSlot(ThreadLocalRandom.current().nextInt(lock.slots), 0),
        () -> busy(this::readRetry));
  }

  private void takeSlot(int first, int tried) {
    if (result.isDone()) {
      return;
    }
    if (tried == lock.slots) {
      busy(this::readRetry); // every slot taken
      return;
    }
    String slot = GenericReadWriteLock.slotKey(name, (first + tried) % lock.slots);
    onKernel(
        lock.kernel.tryAcquireAsync(slot, oneTry),
        h -> {
          if (h.isEmpty()) {
            takeSlot(first, tried + 1);
          } else if (keep(h.get())) {
            checkWriteKeyFree(h.get());
          }
        });
  }

  private void checkWriteKeyFree(LockHandle slot) {
    whenWriteKey(
        () -> drawToken(false, token -> grant(slot, token, this::readRetry)),
        () -> {
          giveBack(); // a writer came: it may be waiting for this slot
          busy(this::readRetry);
        });
  }

  // ---------------------------------------------------------------- write

  private void takeWriteKey() {
    LockOptions o = options;
    if (maxWaitNanos > 0) {
      long left = maxWaitNanos - (clock.nanoTime() - startNanos);
      if (left <= 0) {
        notAcquired();
        return;
      }
      o = options.toBuilder().maxWait(Duration.ofNanos(left)).build();
    }
    onKernel(
        lock.kernel.tryAcquireAsync(GenericReadWriteLock.writeKey(name), o),
        h -> {
          if (h.isEmpty()) {
            notAcquired(); // the kernel spent the retry budget among writers
          } else if (keep(h.get())) {
            List<Integer> all = new ArrayList<>();
            for (int i = 0; i < lock.slots; i++) {
              all.add(i);
            }
            drain(h.get(), all, false);
          }
        });
  }

  /** Reads {@code pending} slots at once; retries those still held after a delay. */
  private void drain(LockHandle writeKey, List<Integer> pending, boolean waited) {
    List<CompletableFuture<Optional<LeaseRecord>>> reads = new ArrayList<>();
    for (int i : pending) {
      reads.add(lock.backend.read(lock.keys.targetKey(GenericReadWriteLock.slotKey(name, i))));
    }
    CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
        .whenComplete(
            (v, e) -> {
              if (e != null) {
                fail(e);
                return;
              }
              List<Integer> still = new ArrayList<>();
              for (int j = 0; j < pending.size(); j++) {
                if (reads.get(j).join().isPresent()) {
                  still.add(pending.get(j));
                }
              }
              if (still.isEmpty()) {
                afterDrain(writeKey, waited);
              } else {
                busy(() -> keepAlive(writeKey, () -> drain(writeKey, still, true)));
              }
            });
  }

  /** Extends the write key while waiting for readers, once less than half its lease is left. */
  private void keepAlive(LockHandle writeKey, Runnable then) {
    Duration lease = lock.lease(options);
    Duration left = Duration.between(clock.instant(), writeKey.leaseEnd());
    if (left.compareTo(lease.dividedBy(2)) > 0) {
      then.run();
      return;
    }
    extendThen(writeKey, then);
  }

  private void extendThen(LockHandle writeKey, Runnable then) {
    writeKey
        .extendAsync(lock.lease(options))
        .whenComplete(
            (ok, e) -> {
              if (e != null) {
                fail(e);
              } else if (Boolean.TRUE.equals(ok)) {
                then.run();
              } else if (writeKey.isHeld()) {
                fail(LockBackendException.other("extending the write key failed", null));
              } else {
                giveBack(); // lost while waiting: another writer may have it now
                busy(this::takeWriteKey);
              }
            });
  }

  private void afterDrain(LockHandle writeKey, boolean waited) {
    Runnable draw = () -> drawToken(true, token -> grant(writeKey, token, this::takeWriteKey));
    if (waited) {
      extendThen(writeKey, draw); // the wait spent lease: the grant starts with a full one
    } else {
      draw.run();
    }
  }

  // ---------------------------------------------------------------- token and grant

  /**
   * Draws a token from the name's token key: a new grant (then released at once), or, when {@code
   * newGrant} is false, the live holder's token.
   */
  private void drawToken(boolean newGrant, LongConsumer then) {
    if (result.isDone()) {
      return;
    }
    String key = lock.tokenKey(name);
    String owner = UUID.randomUUID().toString();
    lock.backend
        .acquire(key, owner, "", TOKEN_LEASE)
        .whenComplete(
            (o, e) -> {
              if (e != null) {
                if (kind(e) != LockFailureKind.UNAVAILABLE) {
                  lock.backend.release(key, owner); // it may have been applied
                }
                fail(e);
              } else if (o.granted()) {
                lock.backend
                    .release(key, owner)
                    .whenComplete((r, e2) -> then.accept(o.fencingToken()));
              } else if (!newGrant) {
                then.accept(o.holder().orElseThrow().fencingToken());
              } else {
                busy(() -> drawToken(true, then));
              }
            });
  }

  /** Hands out {@code lease} unless it was lost meanwhile; then gives it back and retries. */
  private void grant(LockHandle lease, long token, Runnable retryFromStart) {
    if (!lease.isHeld()) {
      giveBack();
      busy(retryFromStart);
      return;
    }
    synchronized (this) {
      if (held == lease) {
        held = null;
      }
    }
    FencedHandle handle = new FencedHandle(lease, name, mode, token, lock.heldCounter(mode));
    if (!result.complete(Optional.of(handle))) {
      handle.closeAsync(); // the caller gave up at this moment
    }
  }

  // ---------------------------------------------------------------- waiting and failing

  /** A busy round: the policy's delay, then {@code next}; or not acquired when the budget ends. */
  private void busy(Runnable next) {
    long now = clock.nanoTime();
    int k;
    synchronized (this) {
      if (result.isDone()) {
        return;
      }
      k = ++busy;
    }
    long delay = k > retry.retryLimit() || maxWaitNanos == 0 ? -1 : nanos(retry.getDelay(k));
    if (delay < 0 || (maxWaitNanos > 0 && delay >= maxWaitNanos - (now - startNanos))) {
      notAcquired();
      return;
    }
    synchronized (this) {
      if (!result.isDone()) {
        timer =
            clock.scheduleNanos(
                delay,
                () -> {
                  synchronized (this) {
                    timer = null;
                  }
                  if (!result.isDone()) {
                    next.run();
                  }
                });
      }
    }
  }

  private void notAcquired() {
    giveBack();
    result.complete(Optional.empty());
  }

  private <T> void onKernel(CompletableFuture<T> f, Consumer<T> then) {
    f.whenComplete(
        (v, e) -> {
          if (e != null) {
            fail(e);
          } else if (!result.isDone()) {
            then.accept(v);
          } else if (v instanceof Optional<?> o && o.orElse(null) instanceof LockHandle h) {
            h.closeAsync(); // granted after the acquisition ended
          }
        });
  }

  private void fail(Throwable e) {
    Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    giveBack();
    if (cause instanceof RuntimeException r && !(cause instanceof LockBackendException)) {
      result.completeExceptionally(r); // the kernel's own typed exceptions, as they are
      return;
    }
    result.completeExceptionally(
        LockBackendUnavailableException.of(name, attempts(), waited(), kind(cause), cause));
  }

  private static LockFailureKind kind(Throwable e) {
    Throwable c = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    return c instanceof LockBackendException b ? b.kind() : LockFailureKind.OTHER;
  }

  private static long nanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE / 4;
    }
  }

  @Override
  public String toString() {
    return mode + " acquisition of " + name;
  }
}
