package io.hostloom.jdbc;

import io.hostloom.locking.spi.support.CallerWaits;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;

/**
 * Runs one prepared statement per call on a worker, in auto-commit, and completes the call's future
 * within the command timeout whatever the database does.
 *
 * <p>Each call moves through phases. A deadline timer started at submission ends the call when it
 * fires: while the call is still {@code QUEUED} or {@code CONNECTING} (waiting for a worker, a
 * pooled connection, or preparing) the statement was never sent, so the failure is {@code
 * UNAVAILABLE} and the worker later skips it; once {@code EXECUTING} the failure is {@code
 * TIMEOUT}. The statement also carries what is left of the call's time as its JDBC query timeout
 * (whole seconds, rounded up; the driver then cancels it on the server), and a worker still stuck
 * two seconds after the deadline has its connection aborted, so a dead peer cannot hold a worker
 * for ever.
 */
final class StatementRunner {
  /** Binds the parameters of a prepared statement. */
  @FunctionalInterface
  interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  /** Reads the complete answer from the statement's rows. */
  @FunctionalInterface
  interface Reader<T> {
    T read(ResultSet rows) throws SQLException;
  }

  /** After the deadline: the query timeout cancels within a second; abort only after that. */
  private static final Duration ABORT_GRACE = Duration.ofSeconds(2);

  private enum Phase {
    QUEUED,
    CONNECTING,
    EXECUTING,
    ABANDONED
  }

  private final DataSource dataSource;
  private final Executor executor;
  private final ScheduledExecutorService timer;
  private final Duration timeout;
  private final long timeoutNanos;
  private final int networkTimeoutMillis;

  StatementRunner(
      DataSource dataSource, Executor executor, ScheduledExecutorService timer, Duration timeout) {
    this.dataSource = dataSource;
    this.executor = executor;
    this.timer = timer;
    this.timeout = timeout;
    this.timeoutNanos = timeout.toNanos();
    this.networkTimeoutMillis = (int) timeout.plus(ABORT_GRACE).toMillis();
  }

  Duration timeout() {
    return timeout;
  }

  /**
   * Runs {@code sql} once. The future completes with the reader's answer, or exceptionally with a
   * {@link io.hostloom.locking.spi.LockBackendException} (see {@link SqlFailures}).
   */
  <T> CompletableFuture<T> run(String op, String sql, Binder binder, Reader<T> reader) {
    if (CallerWaits.allows(timeoutNanos)) {
      return runHere(op, sql, binder, reader);
    }
    return submit(op, sql, binder, reader);
  }

  /**
   * Runs {@code sql} (no parameters, its rows ignored) on a worker, whatever the caller's mark: a
   * warm-up borrows a pooled connection (the pool's first, on a fresh pool) and pays for the
   * statement's first preparation without blocking its caller. Bounded and failing as {@link #run}.
   */
  CompletableFuture<Void> warmUp(String sql) {
    return submit("warm-up", sql, statement -> {}, rows -> null);
  }

  /** {@code sql} on a worker, with the deadline timer. */
  private <T> CompletableFuture<T> submit(String op, String sql, Binder binder, Reader<T> reader) {
    Call<T> call = new Call<>(op, sql, binder, reader);
    try {
      call.deadline = timer.schedule(call::deadlinePassed, timeout.toNanos(), TimeUnit.NANOSECONDS);
      executor.execute(call);
    } catch (RejectedExecutionException e) {
      call.phase.set(Phase.ABANDONED);
      call.future.completeExceptionally(SqlFailures.notSent(op + " (backend busy or closed)", e));
    }
    return call.future;
  }

  /**
   * The statement on the caller's thread, which blocks on the answer anyway ({@link CallerWaits}):
   * no worker, no deadline timer. Bounded without another thread: the query timeout (the server
   * cancels the statement) and the connection's network timeout, a little longer, for a peer that
   * stops answering (the driver then fails the connection, which the pool discards).
   */
  private <T> CompletableFuture<T> runHere(String op, String sql, Binder binder, Reader<T> reader) {
    CompletableFuture<T> future = new CompletableFuture<>();
    long start = System.nanoTime();
    try (Connection c = dataSource.getConnection()) {
      if (!c.getAutoCommit()) {
        c.setAutoCommit(true); // one statement = one transaction; the pool restores its default
      }
      if (System.nanoTime() - start >= timeoutNanos) {
        future.completeExceptionally(SqlFailures.notSentInTime(op, timeout));
        return future;
      }
      int restore = boundNetworkWait(c);
      try (PreparedStatement statement = c.prepareStatement(sql)) {
        statement.setQueryTimeout(queryTimeoutSeconds(start));
        binder.bind(statement);
        try (ResultSet rows = statement.executeQuery()) {
          future.complete(reader.read(rows)); // before close: a failing close keeps the answer
        } catch (SQLException | RuntimeException e) {
          future.completeExceptionally(SqlFailures.afterSend(op, e));
        }
      } finally {
        if (restore >= 0) {
          c.setNetworkTimeout(Runnable::run, restore); // the pool's connection, as it was
        }
      }
    } catch (SQLException | RuntimeException e) {
      // only reached before executeQuery (or from a close, after the future completed)
      future.completeExceptionally(SqlFailures.notSent(op, e));
    }
    return future;
  }

  /**
   * Sets the connection's network timeout to the command timeout plus the abort grace unless it is
   * shorter already; returns the value to restore, or -1 when nothing was changed (also when the
   * driver has no network timeout: the query timeout still bounds the statement).
   */
  private int boundNetworkWait(Connection c) throws SQLException {
    try {
      int current = c.getNetworkTimeout();
      if (current != 0 && current <= networkTimeoutMillis) {
        return -1;
      }
      c.setNetworkTimeout(Runnable::run, networkTimeoutMillis);
      return current;
    } catch (SQLFeatureNotSupportedException e) {
      return -1;
    }
  }

  /** What is left of the call's time, rounded up to whole seconds (JDBC's unit), at least 1. */
  private int queryTimeoutSeconds(long submittedNanos) {
    long left = timeoutNanos - (System.nanoTime() - submittedNanos);
    return (int) Math.max(1, (left + 999_999_999L) / 1_000_000_000L);
  }

  private final class Call<T> implements Runnable {
    final String op;
    final String sql;
    final Binder binder;
    final Reader<T> reader;
    final CompletableFuture<T> future = new CompletableFuture<>();
    final AtomicReference<Phase> phase = new AtomicReference<>(Phase.QUEUED);
    final long submittedNanos = System.nanoTime();
    volatile ScheduledFuture<?> deadline;
    volatile Connection connection;

    Call(String op, String sql, Binder binder, Reader<T> reader) {
      this.op = op;
      this.sql = sql;
      this.binder = binder;
      this.reader = reader;
      CompletableFuture<?> unused =
          future.whenComplete(
              (r, e) -> {
                ScheduledFuture<?> d = deadline;
                if (d != null) {
                  d.cancel(false);
                }
              });
    }

    @Override
    public void run() {
      if (future.isDone() || !phase.compareAndSet(Phase.QUEUED, Phase.CONNECTING)) {
        return; // deadline passed or caller cancelled while queued: never sent
      }
      try (Connection c = dataSource.getConnection()) {
        connection = c;
        if (!c.getAutoCommit()) {
          c.setAutoCommit(true); // one statement = one transaction; the pool restores its default
        }
        try (PreparedStatement statement = c.prepareStatement(sql)) {
          statement.setQueryTimeout(queryTimeoutSeconds(submittedNanos));
          binder.bind(statement);
          if (future.isDone() || !phase.compareAndSet(Phase.CONNECTING, Phase.EXECUTING)) {
            return; // nothing sent; the deadline or the caller already ended the call
          }
          try (ResultSet rows = statement.executeQuery()) {
            future.complete(reader.read(rows)); // before close: a failing close keeps the answer
          } catch (SQLException | RuntimeException e) {
            future.completeExceptionally(SqlFailures.afterSend(op, e));
          }
        }
      } catch (SQLException | RuntimeException e) {
        // only reached before executeQuery (or from close, after the future completed)
        future.completeExceptionally(SqlFailures.notSent(op, e));
      } finally {
        connection = null;
      }
    }

    void deadlinePassed() {
      if (phase.compareAndSet(Phase.QUEUED, Phase.ABANDONED)
          || phase.compareAndSet(Phase.CONNECTING, Phase.ABANDONED)) {
        future.completeExceptionally(SqlFailures.notSentInTime(op, timeout));
        return;
      }
      if (future.completeExceptionally(SqlFailures.noAnswerInTime(op, timeout))) {
        try {
          ScheduledFuture<?> unused =
              timer.schedule(this::abortIfStuck, ABORT_GRACE.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
          // backend closed: the query timeout still ends the statement
        }
      }
    }

    /** The query timeout did not end the statement (dead peer): drop the physical connection. */
    void abortIfStuck() {
      Connection c = connection;
      if (c != null) {
        try {
          c.abort(Runnable::run);
        } catch (SQLException | RuntimeException e) {
          // nothing more to do; the worker is released when the socket fails
        }
      }
    }
  }
}
