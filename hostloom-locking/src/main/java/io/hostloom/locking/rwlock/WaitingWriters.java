package io.hostloom.locking.rwlock;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.support.DelegatingLockBackend;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The native write view as the kernel's lease engine sees it, remembering which owner token each
 * write acquisition sends, so that an acquisition that ends without a grant can remove the
 * <em>waiting</em> writer entry its refused attempts left (one owner-checked release of the write
 * view, see {@link io.hostloom.locking.spi.ReadWriteLeases}). The kernel mints one owner per
 * acquisition and sends its first attempt on the calling thread, inside {@code tryAcquireAsync}:
 * {@link #begin} marks that thread, and the first acquire on it binds the owner. An attempt still
 * in flight when the acquisition gives up is followed by the release once its reply arrives, so a
 * waiting entry it writes does not outlive the acquisition. An attempt the kernel sends after the
 * acquisition gave up (its loop checks for the end, then sends) is not sent at all but answered
 * "held", so once the clean-up was answered no entry of the writer can appear: a given-up writer
 * stays findable, weakly keyed by the owner string its acquisition holds and sends, for as long as
 * that acquisition can still send. Thread-safe.
 */
final class WaitingWriters extends DelegatingLockBackend {
  private static final ThreadLocal<Writer> STARTING = new ThreadLocal<>();

  private final LockBackend view;
  private final Map<String, Writer> byOwner = new ConcurrentHashMap<>();
  // keys are the kernel's owner strings: an entry goes once the acquisition that holds it is gone
  private final Map<String, Writer> givenUp = Collections.synchronizedMap(new WeakHashMap<>());

  WaitingWriters(LockBackend view) {
    this.view = view;
  }

  /** One write acquisition: its owner once bound, attempts in flight, whether it gave up. */
  static final class Writer {
    private String key; // guarded by this; null until the first attempt
    private String owner;
    private int inFlight;
    private boolean givenUp;
    private final CompletableFuture<Void> cleaned = new CompletableFuture<>();
  }

  @Override
  protected LockBackend delegate() {
    return view;
  }

  /** Marks the calling thread: its next acquire is {@code w}'s first attempt. */
  static Writer begin() {
    Writer w = new Writer();
    STARTING.set(w);
    return w;
  }

  /** Ends {@link #begin}'s mark (the kernel sent the first attempt, or sent none). */
  static void started() {
    STARTING.remove();
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    Writer starting = STARTING.get();
    if (starting != null) {
      STARTING.remove();
      synchronized (starting) {
        starting.key = key;
        starting.owner = owner;
      }
      byOwner.put(owner, starting);
    }
    Writer live = byOwner.get(owner);
    // else perhaps sent while its acquisition gave up: cleaned up after its reply too
    Writer w = live != null ? live : givenUp.get(owner);
    if (w == null) {
      return super.acquire(key, owner, data, lease);
    }
    synchronized (w) {
      if (w.givenUp) {
        // the acquisition has ended: an attempt sent now could write a waiting entry after the
        // clean-up was answered, which the caller then meets; nobody reads this answer
        return CompletableFuture.completedFuture(
            AcquireOutcome.held(new LeaseRecord(owner, "", Duration.ZERO, 0)));
      }
      w.inFlight++;
    }
    CompletableFuture<AcquireOutcome> f = super.acquire(key, owner, data, lease);
    var unused = f.whenComplete((o, e) -> replied(w));
    return f;
  }

  private void replied(Writer w) {
    boolean clean;
    synchronized (w) {
      clean = --w.inFlight == 0 && w.givenUp;
    }
    if (clean) {
      clean(w);
    }
  }

  /** {@code w} was granted: nothing to clean up. */
  void granted(Writer w) {
    String owner;
    synchronized (w) {
      owner = w.owner;
    }
    if (owner != null) {
      byOwner.remove(owner);
    }
  }

  /**
   * {@code w} ended without a grant: releases its waiting entry (best effort, owner-checked), now
   * or after the reply of an attempt still in flight. The future completes when that release was
   * answered (or failed), at once when no attempt was sent.
   */
  CompletableFuture<Void> gaveUp(Writer w) {
    boolean now;
    synchronized (w) {
      w.givenUp = true;
      now = w.inFlight == 0;
    }
    if (now) {
      clean(w);
    }
    return w.cleaned;
  }

  private void clean(Writer w) {
    String key;
    String owner;
    synchronized (w) {
      key = w.key;
      owner = w.owner;
    }
    if (owner == null) {
      w.cleaned.complete(null);
      return;
    }
    givenUp.put(owner, w);
    byOwner.remove(owner);
    CompletableFuture<?> f;
    try {
      f = view.release(key, owner);
    } catch (RuntimeException e) {
      f = CompletableFuture.failedFuture(e); // best effort: the entry expires on its own
    }
    var unused = f.whenComplete((r, e) -> w.cleaned.complete(null));
  }

  @Override
  public String name() {
    return view.name();
  }
}
