package io.hostloom.etcd;

import io.etcd.jetcd.Lease;
import io.etcd.jetcd.kv.TxnResponse;
import io.hostloom.locking.spi.LockBackendException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * Runs the backend's operations against etcd, each bounded by the command timeout: an operation
 * grants its etcd lease first (when it writes one), then sends its one transaction at most once,
 * and only if the timeout has not passed yet. Whether the transaction was sent decides the failure
 * kind ({@link EtcdFailures}): {@code UNAVAILABLE} when it was never sent (it never will be),
 * {@code TIMEOUT} when it was sent and no answer came in time. An extension by keep-alive ({@link
 * #runSent}) sends its requests at once, so it is sent from the start.
 */
final class TxnRunner {
  private static final int NEW = 0;
  private static final int SENT = 1;
  private static final int ABANDONED = 2;

  private final Lease leases;
  private final Duration commandTimeout;
  private final ScheduledExecutorService timer;
  private final BooleanSupplier closed;
  private final LongConsumer revisionSeen;
  private final LongSupplier nanoTime;

  /**
   * @param revisionSeen told the revision of every transaction's answer, before its step runs
   * @param nanoTime the local monotonic clock that times a grant's request
   */
  TxnRunner(
      Lease leases,
      Duration commandTimeout,
      ScheduledExecutorService timer,
      BooleanSupplier closed,
      LongConsumer revisionSeen,
      LongSupplier nanoTime) {
    this.leases = leases;
    this.commandTimeout = commandTimeout;
    this.timer = timer;
    this.closed = closed;
    this.revisionSeen = revisionSeen;
    this.nanoTime = nanoTime;
  }

  /**
   * The lease an operation granted for itself.
   *
   * @param id the etcd lease id (0: none)
   * @param ttl the TTL etcd answered, in seconds
   * @param sentNanos when the grant request was sent, on the runner's clock
   */
  record Grant(long id, long ttl, long sentNanos) {
    static final Grant NONE = new Grant(0, 0, 0);
  }

  /** What an operation makes of its transaction's answer, given the lease it granted. */
  @FunctionalInterface
  interface Step<T> {
    CompletableFuture<T> apply(Grant lease, TxnResponse response);
  }

  /**
   * Runs one operation: grants a lease of {@code ttl} seconds first (none when 0), then sends the
   * transaction {@code txn} makes for that lease, and completes with what {@code answer} makes of
   * the response; fails with a {@link LockBackendException} of the kind the state decides.
   */
  <T> CompletableFuture<T> run(
      String operation,
      long ttl,
      Function<Long, CompletableFuture<TxnResponse>> txn,
      Step<T> answer) {
    return runLeased(operation, ttl, txn, r -> r.getHeader().getRevision(), answer::apply);
  }

  /**
   * Runs one operation as {@link #run} does, whose requests after the lease grant ({@code send},
   * given the lease id) answer an {@code R} of their own: a view's read and the guarded transaction
   * it decides, for example. Such an operation fails with a {@link LockBackendException} it makes
   * itself when it knows better than "sent" (a read that changed nothing).
   *
   * @param revision the etcd revision an answer saw
   */
  <R, T> CompletableFuture<T> runLeased(
      String operation,
      long ttl,
      Function<Long, CompletableFuture<R>> send,
      ToLongFunction<R> revision,
      BiFunction<Grant, R, CompletableFuture<T>> answer) {
    Supplier<CompletableFuture<Grant>> lease =
        ttl == 0
            ? () -> CompletableFuture.completedFuture(Grant.NONE)
            : () -> {
              long sent = nanoTime.getAsLong();
              return call(() -> leases.grant(ttl))
                  .thenApply(g -> new Grant(g.getID(), g.getTTL(), sent));
            };
    return execute(operation, NEW, lease, g -> send.apply(g.id()), revision, answer);
  }

  /**
   * Runs one operation whose requests {@code send} sends at once (nothing to wait for first), so it
   * counts as sent from the start: a failure or no answer in time is {@code TIMEOUT} (or what etcd
   * answered), never {@code UNAVAILABLE}.
   *
   * @param revision the etcd revision an answer saw
   */
  <R, T> CompletableFuture<T> runSent(
      String operation,
      Supplier<CompletableFuture<R>> send,
      ToLongFunction<R> revision,
      Function<R, CompletableFuture<T>> answer) {
    return execute(
        operation,
        SENT,
        () -> CompletableFuture.completedFuture(Grant.NONE),
        g -> send.get(),
        revision,
        (g, r) -> answer.apply(r));
  }

  private <R, T> CompletableFuture<T> execute(
      String operation,
      int initial,
      Supplier<CompletableFuture<Grant>> grant,
      Function<Grant, CompletableFuture<R>> send,
      ToLongFunction<R> revision,
      BiFunction<Grant, R, CompletableFuture<T>> answer) {
    if (closed.getAsBoolean()) {
      return CompletableFuture.failedFuture(
          LockBackendException.unavailable("etcd " + operation + ": backend closed", null));
    }
    AtomicInteger state = new AtomicInteger(initial);
    CompletableFuture<T> result = new CompletableFuture<>();
    grant
        .get()
        .thenCompose(
            lease -> {
              if (initial == NEW && !state.compareAndSet(NEW, SENT)) {
                revokeLater(lease.id());
                return CompletableFuture.<T>failedFuture(new TimeoutException());
              }
              return call(() -> send.apply(lease))
                  .thenCompose(
                      r -> {
                        revisionSeen.accept(revision.applyAsLong(r));
                        return answer.apply(lease, r);
                      });
            })
        .whenComplete(
            (v, e) -> {
              if (e == null) {
                result.complete(v);
              } else {
                result.completeExceptionally(EtcdFailures.map(operation, e, state.get() == SENT));
              }
            });
    Runnable timeout =
        () -> {
          boolean neverSent = state.compareAndSet(NEW, ABANDONED);
          String message = "etcd " + operation + " timed out after " + commandTimeout;
          result.completeExceptionally(
              neverSent
                  ? LockBackendException.unavailable(message + " (never sent)", null)
                  : LockBackendException.timeout(message, null));
        };
    ScheduledFuture<?> deadline;
    try {
      deadline = timer.schedule(timeout, commandTimeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException closedMeanwhile) {
      // close() shut the timer down since the check above: SPI calls never throw, so the call
      // still answers, bounded by the JDK's delayer (a call not yet sent is not sent at all)
      if (state.compareAndSet(NEW, ABANDONED)) {
        result.completeExceptionally(
            LockBackendException.unavailable(
                "etcd " + operation + ": backend closed", closedMeanwhile));
      } else {
        CompletableFuture.delayedExecutor(commandTimeout.toNanos(), TimeUnit.NANOSECONDS)
            .execute(timeout);
      }
      return result;
    }
    result.whenComplete((v, e) -> deadline.cancel(false));
    return result;
  }

  /** Revokes {@code leaseId} in the background (none when 0 or closed). */
  void revokeLater(long leaseId) {
    if (leaseId != 0 && !closed.getAsBoolean()) {
      call(() -> leases.revoke(leaseId)); // cleanup only: an unrevoked lease runs out by itself
    }
  }

  /** The future {@code c} makes, or a failed one when jetcd throws (it does on a closed client). */
  static <T> CompletableFuture<T> call(Supplier<CompletableFuture<T>> c) {
    try {
      return c.get();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
