package io.hostloom.reliability;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.PermitLeases;
import io.hostloom.locking.spi.ReadWriteLeases;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.testkit.LockHistory;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * Sits between a lock and its backend and records every hold into a {@link LockHistory}: ENTER when
 * a grant arrives, EXTEND when an extension (or a same-owner re-acquire) succeeds, EXIT right
 * before the release is sent. The send time of each command is taken just before it is handed to
 * the backend, so the checker's lease interval ({@code sent + lease}) never outlasts the real one.
 *
 * <p>Recording here rather than around the lock's API catches what the API hides: retries, late
 * grants the kernel releases at once, heartbeats and orphan releases. A hold is labelled {@code
 * <process label>-<serial>}; owner tokens never reach the ledger.
 *
 * <p>It also counts calls per operation and failures per {@link LockFailureKind}. Callbacks run on
 * the backend's threads and only append a line to the ledger. Release signals are passed through
 * when the backend has them, so the lock waits exactly as it would without the recorder. A
 * backend's {@link PermitLeases} view and {@link ReadWriteLeases} views are passed through recorded
 * too, so a semaphore or reader-writer lock over the recorder runs natively where it would without
 * it.
 */
final class RecordingBackend implements LockBackend, ReleaseSignal, PermitLeases, ReadWriteLeases {
  private final LockBackend delegate;
  private final LockHistory history;
  private final String label;
  private final AtomicLong serial;
  // a permit view's count (its holds are recorded per slot, key#slot, slot = token mod count), or 0
  private final int permits;
  // a reader-writer view: "/r" (each read recorded as key/r#token: readers share), "/w", or null
  private final String rwView;
  private final Map<String, Held> holds = new ConcurrentHashMap<>(); // key + NUL + owner
  // when releases were sent before their grant arrived (a lock closed with an acquisition in
  // flight)
  private final Map<String, Long> releasedEarly = new ConcurrentHashMap<>();
  private final AtomicLong calls;
  private final Map<LockFailureKind, AtomicLong> failures;

  private record Held(LockHistory.Hold hold, long token) {}

  RecordingBackend(LockBackend delegate, LockHistory history, String label) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.history = Objects.requireNonNull(history, "history");
    this.label = Objects.requireNonNull(label, "label");
    this.serial = new AtomicLong();
    this.permits = 0;
    this.rwView = null;
    this.calls = new AtomicLong();
    this.failures = new EnumMap<>(LockFailureKind.class);
    for (LockFailureKind k : LockFailureKind.values()) {
      failures.put(k, new AtomicLong());
    }
  }

  /** The recorder of {@code parent}'s delegate's permit view: same ledger, labels and counts. */
  private RecordingBackend(RecordingBackend parent, LockBackend view, int permits) {
    this(parent, view, permits, null);
  }

  private RecordingBackend(RecordingBackend parent, LockBackend view, int permits, String rwView) {
    this.rwView = rwView;
    this.delegate = view;
    this.history = parent.history;
    this.label = parent.label;
    this.serial = parent.serial;
    this.permits = permits;
    this.calls = parent.calls;
    this.failures = parent.failures;
  }

  /**
   * The delegate's permit view, recorded: so the semaphore runs natively through the recorder, and
   * each permit is recorded as a hold of its slot ({@code <key>#<slot>}), as the generic slot keys
   * are.
   */
  @Override
  public Optional<LockBackend> permitView(int count) {
    if (delegate instanceof PermitLeases p) {
      return p.permitView(count).map(v -> new RecordingBackend(this, v, count));
    }
    return Optional.empty();
  }

  /**
   * The delegate's reader-writer views, recorded: so the reader-writer lock runs natively through
   * the recorder; a write is recorded as a hold of {@code <key>/w}, each read as a hold of its own
   * {@code <key>/r#<token>} (readers share, so only writes are exclusive).
   */
  @Override
  public Optional<Views> readWriteViews(int maxReaders) {
    if (delegate instanceof ReadWriteLeases rw) {
      return rw.readWriteViews(maxReaders)
          .map(
              v ->
                  new Views(
                      new RecordingBackend(this, v.read(), 0, "/r"),
                      new RecordingBackend(this, v.write(), 0, "/w")));
    }
    return Optional.empty();
  }

  /**
   * Backend calls sent so far (acquire, extend, release, replace; reads are not lock operations).
   */
  long calls() {
    return calls.get();
  }

  /** Failed backend calls of {@code kind} so far. */
  long failures(LockFailureKind kind) {
    return failures.get(kind).get();
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    long sent = LockHistory.now();
    CompletableFuture<AcquireOutcome> f = delegate.acquire(key, owner, data, lease);
    calls.incrementAndGet();
    return observe(
        f,
        (o, e) -> {
          if (e != null) {
            countFailure(e);
          } else if (o.granted()) {
            granted(key, owner, o.fencingToken(), sent, lease);
          }
        });
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    long sent = LockHistory.now();
    CompletableFuture<ExtendOutcome> f = delegate.extend(key, owner, lease);
    calls.incrementAndGet();
    return observe(
        f,
        (ok, e) -> {
          if (e != null) {
            countFailure(e);
          } else if (ok.extended()) {
            Held h = holds.get(id(key, owner));
            if (h != null) {
              h.hold().extended(sent, lease);
            }
          }
        });
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    Held h = holds.remove(id(key, owner));
    if (h != null) {
      h.hold().exit(); // the holder stops relying on the lock before the release can act
    } else {
      releasedEarly.put(id(key, owner), LockHistory.now());
    }
    CompletableFuture<ReleaseOutcome> f = delegate.release(key, owner);
    calls.incrementAndGet();
    return observe(
        f,
        (ok, e) -> {
          if (e != null) {
            countFailure(e);
          }
        });
  }

  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    Held old = holds.remove(id(key, expectedOwner));
    if (old != null) {
      old.hold().exit();
    }
    long sent = LockHistory.now();
    CompletableFuture<ReplaceOutcome> f =
        delegate.replace(key, expectedOwner, newOwner, newData, lease);
    calls.incrementAndGet();
    return observe(
        f,
        (o, e) -> {
          if (e != null) {
            countFailure(e);
          } else if (o.replaced()) {
            granted(key, newOwner, o.fencingToken(), sent, lease);
          }
        });
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    return delegate.read(key);
  }

  @Override
  public CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait) {
    if (delegate instanceof ReleaseSignal signal) {
      return signal.awaitRelease(key, maxWait);
    }
    Objects.requireNonNull(key, "key");
    return CompletableFuture.completedFuture(false); // no signals: the lock polls
  }

  @Override
  public String name() {
    return delegate.name();
  }

  private void granted(String key, String owner, long token, long sent, Duration lease) {
    String recorded =
        rwView != null
            ? key + rwView + (rwView.equals("/r") ? "#" + token : "")
            : permits == 0 ? key : key + "#" + Math.floorMod(token, (long) permits);
    holds.compute(
        id(key, owner),
        (k, h) -> {
          if (h != null && h.token() == token) {
            h.hold().extended(sent, lease); // a same-owner re-acquire refreshes the hold
            return h;
          }
          String holder = label + "-" + serial.incrementAndGet();
          Long releaseSent = releasedEarly.remove(k);
          if (releaseSent != null) {
            // nobody relies on a grant whose release was already sent: an exit before the grant
            history.enter(recorded, holder, token, sent, lease).exit(releaseSent);
            return null;
          }
          return new Held(history.enter(recorded, holder, token, sent, lease), token);
        });
  }

  /**
   * The backend's future as the lock sees it, with {@code onDone} run first, on the backend's
   * completion. Not {@code f.whenComplete(onDone)}: a dependent that the lock cancels would skip
   * {@code onDone}, losing a late grant. The lock's cancellation is passed on to the backend, as it
   * would be without the recorder.
   */
  private static <T> CompletableFuture<T> observe(
      CompletableFuture<T> f, BiConsumer<? super T, ? super Throwable> onDone) {
    CompletableFuture<T> out = new CompletableFuture<>();
    var unused =
        f.whenComplete(
            (v, e) -> {
              try {
                onDone.accept(v, e);
              } finally {
                if (e != null) {
                  out.completeExceptionally(e);
                } else {
                  out.complete(v);
                }
              }
            });
    var unused2 =
        out.whenComplete(
            (v, e) -> {
              if (out.isCancelled()) {
                f.cancel(false);
              }
            });
    return out;
  }

  private void countFailure(Throwable e) {
    Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    if (cause instanceof CancellationException) {
      return; // the lock gave up on the call: not a backend failure
    }
    LockFailureKind kind =
        cause instanceof LockBackendException b ? b.kind() : LockFailureKind.OTHER;
    failures.get(kind).incrementAndGet();
  }

  private static String id(String key, String owner) {
    return key + '\0' + owner;
  }
}
