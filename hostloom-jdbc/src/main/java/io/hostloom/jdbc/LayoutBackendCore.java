package io.hostloom.jdbc;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.BackendWarmUp;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.locking.spi.support.DelegatingLockBackend;
import io.hostloom.locking.spi.support.VersionedRecordLockBackend;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * What the compatibility-layout backends ({@link ShedLockTableBackend}, {@link
 * IntLockTableBackend}) share: their threads, the bounded statement runner, the generic backend
 * over a {@link TimestampRowStore}, the key check that rejects, before anything is sent, a key the
 * layout cannot name, and the warm-up.
 */
final class LayoutBackendCore extends DelegatingLockBackend
    implements BackendWarmUp, AutoCloseable {
  private final RowLayout layout;
  private final Duration commandTimeout;
  private final ScheduledThreadPoolExecutor timer;
  private final ThreadPoolExecutor workers;
  private final StatementRunner runner;
  private final VersionedRecordLockBackend<TimestampRowStore.Version> backend;

  LayoutBackendCore(
      String name, DataSource dataSource, RowLayout layout, Duration commandTimeout, int threads) {
    this.layout = layout;
    this.commandTimeout = commandTimeout;
    this.timer =
        new ScheduledThreadPoolExecutor(1, JdbcLockBackend.daemonThreads("hostloom-" + name));
    timer.setRemoveOnCancelPolicy(true);
    this.workers =
        new ThreadPoolExecutor(
            threads,
            threads,
            60,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(JdbcLockBackend.DEFAULT_MAX_QUEUED_CALLS),
            JdbcLockBackend.daemonThreads("hostloom-" + name + "-worker"));
    workers.allowCoreThreadTimeOut(true);
    this.runner =
        new StatementRunner(Objects.requireNonNull(dataSource), workers, timer, commandTimeout);
    this.backend =
        VersionedRecordLockBackend.builder(new TimestampRowStore(layout, runner))
            .name(name)
            .commandTimeout(commandTimeout)
            .build();
  }

  @Override
  protected LockBackend delegate() {
    return backend;
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    check(key);
    return super.acquire(key, owner, data, lease);
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    check(key);
    return super.extend(key, owner, lease);
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    check(key);
    return super.release(key, owner);
  }

  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    check(key);
    return super.replace(key, expectedOwner, newOwner, newData, lease);
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    check(key);
    return super.read(key);
  }

  /**
   * As {@link JdbcLockBackend#warmUp()}: on a worker, a pooled connection and one {@code SELECT 1
   * FROM table WHERE FALSE}, bounded by the command timeout; {@code UNAVAILABLE} once closed.
   */
  @Override
  public CompletableFuture<Void> warmUp() {
    return runner.warmUp("SELECT 1 FROM " + layout.table() + " WHERE FALSE");
  }

  private void check(String key) {
    Objects.requireNonNull(key, "key");
    if (key.isEmpty()) {
      throw new IllegalArgumentException("key must not be empty");
    }
    layout.keyValues().apply(key).forEach(v -> TimestampRowStore.storable("key", v));
  }

  /** The part of {@code key} after {@code prefix}, the old library's name of the lock. */
  static String withoutPrefix(String prefix, String key, String what) {
    if (!key.startsWith(prefix) || key.length() == prefix.length()) {
      throw new IllegalArgumentException(
          "key must be the prefix \"" + prefix + "\" and " + what + " but was \"" + key + "\"");
    }
    return key.substring(prefix.length());
  }

  /** Stops the threads after at most the command timeout for calls in flight. Idempotent. */
  @Override
  public void close() {
    workers.shutdown();
    try {
      workers.awaitTermination(commandTimeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    timer.shutdown();
  }
}
