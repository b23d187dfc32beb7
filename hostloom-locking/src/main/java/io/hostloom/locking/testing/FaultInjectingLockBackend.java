package io.hostloom.locking.testing;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.locking.testing.CountingLockBackend.Operation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Wraps a {@link LockBackend} and injects the faults a real backend shows, per operation. Faults
 * surface as exceptionally completed futures, never as synchronous throws. Thread-safe.
 *
 * <ul>
 *   <li>{@link #failNext}/{@link #failAll}: the call never reaches the inner backend and fails with
 *       a {@link LockBackendException} of the given kind ({@link #heal()} ends it).
 *   <li>{@link #applyThenFail}: the call is applied by the inner backend, then the reply is
 *       replaced by a failure (a command that ran but whose answer was lost in a timeout).
 *   <li>{@link #holdReplies}: calls are applied at once; their replies are withheld until {@link
 *       #deliverReplies()} (or forever: "applied, reply lost"). A cancelled held future stays
 *       cancelled.
 *   <li>{@link #holdRequests}: calls are not applied until {@link #releaseRequests()} (a command
 *       still in transit); cancelling the future drops the command, like a backend that honours
 *       cancellation before sending.
 * </ul>
 *
 * <p>{@link #calls} counts calls that reached the inner backend; {@link #faulted()} counts injected
 * failures.
 */
public final class FaultInjectingLockBackend implements LockBackend {
  private final LockBackend delegate;
  private final Map<Operation, AtomicLong> calls = new EnumMap<>(Operation.class);
  private final AtomicLong faulted = new AtomicLong();

  // guarded by this
  private final Map<Operation, Integer> failNext = new EnumMap<>(Operation.class);
  private final Map<Operation, LockFailureKind> failKind = new EnumMap<>(Operation.class);
  private final Map<Operation, LockFailureKind> failAll = new EnumMap<>(Operation.class);
  private final Map<Operation, Integer> applyThenFail = new EnumMap<>(Operation.class);
  private final Map<Operation, LockFailureKind> applyThenFailKind = new EnumMap<>(Operation.class);
  private final Set<Operation> holdReplies = EnumSet.noneOf(Operation.class);
  private final Set<Operation> holdRequests = EnumSet.noneOf(Operation.class);
  private final List<Runnable> heldReplies = new ArrayList<>();
  private final List<Runnable> heldRequests = new ArrayList<>();

  public FaultInjectingLockBackend(LockBackend delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    for (Operation op : Operation.values()) {
      calls.put(op, new AtomicLong());
    }
  }

  private static Set<Operation> opsOrAll(Operation... ops) {
    return ops.length == 0 ? EnumSet.allOf(Operation.class) : EnumSet.of(ops[0], ops);
  }

  /** The next {@code count} calls of {@code ops} (all operations when none given) fail. */
  public synchronized FaultInjectingLockBackend failNext(
      int count, LockFailureKind kind, Operation... ops) {
    for (Operation op : opsOrAll(ops)) {
      failNext.put(op, count);
      failKind.put(op, kind);
    }
    return this;
  }

  /** Every call of {@code ops} (all when none given) fails until {@link #heal()}. */
  public synchronized FaultInjectingLockBackend failAll(LockFailureKind kind, Operation... ops) {
    for (Operation op : opsOrAll(ops)) {
      failAll.put(op, kind);
    }
    return this;
  }

  /** The next {@code count} calls of {@code ops} are applied, then answered with a failure. */
  public synchronized FaultInjectingLockBackend applyThenFail(
      int count, LockFailureKind kind, Operation... ops) {
    for (Operation op : opsOrAll(ops)) {
      applyThenFail.put(op, count);
      applyThenFailKind.put(op, kind);
    }
    return this;
  }

  /** Replies of {@code ops} (acquire when none given) are withheld; the commands are applied. */
  public synchronized FaultInjectingLockBackend holdReplies(Operation... ops) {
    holdReplies.addAll(ops.length == 0 ? EnumSet.of(Operation.ACQUIRE) : opsOrAll(ops));
    return this;
  }

  /**
   * Calls of {@code ops} (acquire when none given) wait, unapplied, for {@link #releaseRequests}.
   */
  public synchronized FaultInjectingLockBackend holdRequests(Operation... ops) {
    holdRequests.addAll(ops.length == 0 ? EnumSet.of(Operation.ACQUIRE) : opsOrAll(ops));
    return this;
  }

  /** Delivers the withheld replies and stops withholding. */
  public void deliverReplies() {
    List<Runnable> out;
    synchronized (this) {
      holdReplies.clear();
      out = new ArrayList<>(heldReplies);
      heldReplies.clear();
    }
    out.forEach(Runnable::run);
  }

  /** Sends the withheld requests to the inner backend and stops withholding. */
  public void releaseRequests() {
    List<Runnable> out;
    synchronized (this) {
      holdRequests.clear();
      out = new ArrayList<>(heldRequests);
      heldRequests.clear();
    }
    out.forEach(Runnable::run);
  }

  /** Ends every fault and delivers everything withheld. */
  public void heal() {
    synchronized (this) {
      failNext.clear();
      failAll.clear();
      applyThenFail.clear();
    }
    releaseRequests();
    deliverReplies();
  }

  /** Replies currently withheld. */
  public synchronized int heldReplyCount() {
    return heldReplies.size();
  }

  /** Requests currently withheld. */
  public synchronized int heldRequestCount() {
    return heldRequests.size();
  }

  /** Calls of {@code op} that reached the inner backend. */
  public long calls(Operation op) {
    return calls.get(op).get();
  }

  /** Injected failures so far. */
  public long faulted() {
    return faulted.get();
  }

  public LockBackend delegate() {
    return delegate;
  }

  private <T> CompletableFuture<T> call(Operation op, Supplier<CompletableFuture<T>> inner) {
    LockFailureKind fail;
    LockFailureKind afterApply = null;
    boolean holdReply;
    boolean holdRequest;
    synchronized (this) {
      fail = failAll.get(op);
      if (fail == null) {
        Integer n = failNext.get(op);
        if (n != null && n > 0) {
          failNext.put(op, n - 1);
          fail = failKind.get(op);
        }
      }
      if (fail == null) {
        Integer n = applyThenFail.get(op);
        if (n != null && n > 0) {
          applyThenFail.put(op, n - 1);
          afterApply = applyThenFailKind.get(op);
        }
      }
      holdReply = holdReplies.contains(op);
      holdRequest = holdRequests.contains(op);
    }
    if (fail != null) {
      faulted.incrementAndGet();
      return CompletableFuture.failedFuture(injected(op, fail));
    }
    CompletableFuture<T> out = new CompletableFuture<>();
    LockFailureKind failAfter = afterApply;
    Runnable send =
        () -> {
          if (out.isDone()) {
            return; // cancelled before it was sent: never applied
          }
          calls.get(op).incrementAndGet();
          CompletableFuture<T> f;
          try {
            f = inner.get();
          } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
          }
          var unused =
              f.whenComplete(
                  (r, e) -> {
                    Runnable reply =
                        () -> {
                          if (failAfter != null) {
                            faulted.incrementAndGet();
                            out.completeExceptionally(injected(op, failAfter));
                          } else if (e != null) {
                            out.completeExceptionally(e);
                          } else {
                            out.complete(r);
                          }
                        };
                    if (holdReply) {
                      synchronized (this) {
                        heldReplies.add(reply);
                      }
                    } else {
                      reply.run();
                    }
                  });
        };
    if (holdRequest) {
      synchronized (this) {
        heldRequests.add(send);
      }
    } else {
      send.run();
    }
    return out;
  }

  private static LockBackendException injected(Operation op, LockFailureKind kind) {
    return new LockBackendException(
        kind, "injected " + kind + " on " + op.name().toLowerCase(java.util.Locale.ROOT));
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    return call(Operation.ACQUIRE, () -> delegate.acquire(key, owner, data, lease));
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    return call(Operation.EXTEND, () -> delegate.extend(key, owner, lease));
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    return call(Operation.RELEASE, () -> delegate.release(key, owner));
  }

  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    return call(
        Operation.REPLACE, () -> delegate.replace(key, expectedOwner, newOwner, newData, lease));
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    return call(Operation.READ, () -> delegate.read(key));
  }

  @Override
  public String name() {
    return delegate.name();
  }
}
