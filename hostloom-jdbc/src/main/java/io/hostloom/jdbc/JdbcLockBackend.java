package io.hostloom.jdbc;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.BackendHealthProbe;
import io.hostloom.locking.spi.BackendWarmUp;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.PermitLeases;
import io.hostloom.locking.spi.ReadWriteLeases;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.locking.spi.support.BackendArguments;
import io.hostloom.locking.spi.support.LeaseRounding;
import io.hostloom.locking.spi.support.ReleaseWaitRegistry;
import io.hostloom.locking.spi.support.SpiLimits;
import io.hostloom.locking.time.LockClock;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * A {@link LockBackend} on one table of PostgreSQL or MariaDB 10.5+ (the {@link SqlDialect}), over
 * plain JDBC and a user-supplied {@link DataSource} (a connection pool such as HikariCP).
 *
 * <p><b>Operations.</b> Each operation is one SQL statement sent in auto-commit: one round trip and
 * one transaction. Expiry is decided by the database server's clock (PostgreSQL's {@code
 * statement_timestamp()}, MariaDB's current time), never by this JVM's. Fencing tokens come from a
 * sequence and are drawn under the key's row lock, so they increase in the order grants are
 * decided, also after releases and purges (see the module README for when they may repeat). No
 * SERIALIZABLE transactions, no session state, no session-level advisory locks: on PostgreSQL it
 * works behind PgBouncer in transaction pooling mode.
 *
 * <p><b>Threads and bounds.</b> JDBC blocks, so a call runs on a worker of a bounded executor
 * (owned by the backend unless {@link Builder#executor supplied}), with a deadline timer. Every
 * returned future completes within the {@linkplain Builder#commandTimeout command timeout} of the
 * call, also when nobody waits for it; what is left of it is the statement's JDBC query timeout.
 * Futures complete on a worker, the backend's timer thread or its listener thread: dependent stages
 * must not block.
 *
 * <p><b>On the caller's thread.</b> A call made by a caller that blocks on its answer anyway (the
 * kernel's blocking {@code acquire}/{@code tryAcquire}/{@code executeWithLock} and {@code
 * LockHandle.close()}, the WOPI provider: {@link io.hostloom.locking.spi.support.CallerWaits}) runs
 * on that thread, with no worker and no timer, and returns a completed future; so a blocking caller
 * pays what plain JDBC costs. Its statement is bounded by the query timeout and by the connection's
 * network timeout (the command timeout + 2 s, restored afterwards); the wait for a pooled
 * connection is the pool's own (HikariCP's {@code connectionTimeout}: set it at most the command
 * timeout), and a call that got its connection only after the command timeout fails {@code
 * UNAVAILABLE} unsent. An interrupt that arrives while such a statement runs is seen when it ends.
 * An interrupted caller, a caller whose {@code maxWait} is shorter than the command timeout, and
 * every asynchronous form use a worker.
 *
 * <p><b>Blocking.</b> The operations never block a caller that did not mark itself as waiting; only
 * {@link Builder#build()} (when it creates the table: each statement bounded by the command
 * timeout, the connection by the pool's own timeout) and {@link #close()} (at most the command
 * timeout) do. Cancelling a returned future abandons the call if its statement has not been sent
 * yet; a statement already sent runs to its end (the SPI's rule: assume it may have been applied).
 *
 * <p><b>Failures.</b> A failed call completes its future with a {@link LockBackendException}:
 * {@code UNAVAILABLE} when the statement was never sent (no worker or pooled connection in time,
 * connection refused), {@code TIMEOUT} when it was sent and no answer came (timeout, cancel,
 * connection lost mid-call: it may have been applied), {@code OTHER} for anything else. Arguments
 * that break the SPI's rules are rejected by throwing {@link NullPointerException} or {@link
 * IllegalArgumentException}.
 *
 * <p><b>Keys and values.</b> Keys up to {@value #MAX_KEY_LENGTH} UTF-16 units and owners and data
 * up to {@value #MAX_VALUE_LENGTH} are accepted; any characters round-trip exactly (see the README
 * for the stored form). Leases are rounded up to whole milliseconds, at least 1 ms, and capped at
 * {@link #MAX_LEASE}.
 *
 * <p>Also a {@link BackendHealthProbe} (one bounded query against the table), a {@link
 * BackendWarmUp} (the same query, on a worker) and a {@link ReleaseSignal} (PostgreSQL's
 * LISTEN/NOTIFY, MariaDB's polling, when {@linkplain Builder#releaseNotifications enabled}), and it
 * offers native semaphores and reader-writer locks ({@link PermitLeases}, {@link ReadWriteLeases}:
 * one call per grant on tables of the shipped DDL). {@link #close()} releases the backend's threads
 * but never closes the {@code DataSource}.
 */
public final class JdbcLockBackend
    implements LockBackend,
        BackendHealthProbe,
        BackendWarmUp,
        ReleaseSignal,
        ReadWriteLeases,
        PermitLeases,
        AutoCloseable {

  /** Longest key accepted, in UTF-16 units (the SPI's limit). */
  public static final int MAX_KEY_LENGTH = SpiLimits.MAX_KEY_LENGTH;

  /**
   * Longest owner, and longest data, accepted, in UTF-16 units: four times the SPI's limit, so a
   * caller that appends to a maximal value is not refused for a few characters.
   */
  public static final int MAX_VALUE_LENGTH = 4 * SpiLimits.MAX_OWNER_LENGTH;

  private static final BackendArguments ARGUMENTS =
      BackendArguments.withLimits(MAX_KEY_LENGTH, MAX_VALUE_LENGTH, MAX_VALUE_LENGTH);

  /** Longer leases are shortened to this: effectively for ever. */
  public static final Duration MAX_LEASE = Duration.ofDays(36_500);

  /** Rows per statement of MariaDB's purge. */
  static final int PURGE_BATCH = 1000;

  /** Slack per statement beyond the command timeout in {@link #minimumPurgeAge()}. */
  static final long PURGE_SLACK_SECONDS = 5;

  /** Default {@link Builder#commandTimeout}. */
  public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(5);

  /** Default {@link Builder#executorThreads}. */
  public static final int DEFAULT_EXECUTOR_THREADS = 8;

  /** Default {@link Builder#maxQueuedCalls}. */
  public static final int DEFAULT_MAX_QUEUED_CALLS = 10_000;

  private final LockTable table;
  private final SqlDialect dialectName;
  private final Dialect dialect;
  private final ViewDialect views; // null: this engine keeps semaphores and RW locks generic
  private final Duration commandTimeout;
  private final StatementRunner runner;
  private final ScheduledThreadPoolExecutor timer;
  private final ThreadPoolExecutor ownedExecutor;
  private final ReleaseWaitRegistry waits;
  private final ReleaseWaits releaseWaits; // null: notifications off, only maxWait ends a wait
  private final AtomicBoolean closed = new AtomicBoolean();

  private JdbcLockBackend(Builder b) {
    this.table = b.table;
    this.dialectName = b.dialect;
    this.dialect = b.dialect.create(b.table);
    this.views = dialect.views();
    this.commandTimeout = b.commandTimeout;
    this.timer = new ScheduledThreadPoolExecutor(1, daemonThreads("hostloom-jdbc-timer"));
    timer.setRemoveOnCancelPolicy(true);
    this.waits = new ReleaseWaitRegistry(LockClock.system(timer));
    Executor executor = b.executor;
    if (executor == null) {
      ownedExecutor =
          new ThreadPoolExecutor(
              b.executorThreads,
              b.executorThreads,
              60,
              TimeUnit.SECONDS,
              new ArrayBlockingQueue<>(b.maxQueuedCalls),
              daemonThreads("hostloom-jdbc-worker"));
      ownedExecutor.allowCoreThreadTimeOut(true);
      executor = ownedExecutor;
    } else {
      ownedExecutor = null;
    }
    this.runner = new StatementRunner(b.dataSource, executor, timer, b.commandTimeout);
    try {
      if (b.createTableIfMissing) {
        createTable(b.dataSource);
      }
      this.releaseWaits = b.releaseNotifications ? newReleaseWaits(b.listenerDataSource) : null;
    } catch (RuntimeException e) {
      shutdownThreads();
      throw e;
    }
  }

  /** A builder over {@code dataSource}, which should be a connection pool. */
  public static Builder builder(DataSource dataSource) {
    return new Builder(dataSource);
  }

  /** The table this backend uses. */
  public LockTable table() {
    return table;
  }

  /** Release waits not yet ended (for tests). */
  int pendingReleaseWaits() {
    return waits.pending();
  }

  /** Release waits whose first poll has not answered yet: 0 unless polling (for tests). */
  int unobservedReleaseWaits() {
    return releaseWaits instanceof PollingReleaseWatcher p ? p.unobservedWaits() : 0;
  }

  /** The SQL engine this backend speaks. */
  public SqlDialect dialect() {
    return dialectName;
  }

  /**
   * Whether release signals can arrive right now (false when off): PostgreSQL's listener holds a
   * connection in LISTEN; MariaDB's polling is on until close.
   */
  public boolean isListeningForReleases() {
    return releaseWaits != null && releaseWaits.isListening();
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    return run(
        "acquire",
        dialect.acquire(storedKey(key), storedOwner(owner), storedData(data), leaseMillis(lease)));
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    return run("extend", dialect.extend(storedKey(key), storedOwner(owner), leaseMillis(lease)));
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    return run(
        "release", dialect.release(storedKey(key), storedOwner(owner), releaseWaits != null));
  }

  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    return run(
        "replace",
        dialect.replace(
            storedKey(key),
            storedOwner(expectedOwner),
            storedOwner(newOwner),
            storedData(newData),
            leaseMillis(lease)));
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    return run("read", dialect.read(storedKey(key)));
  }

  /**
   * {@inheritDoc}
   *
   * <p>On PostgreSQL: each operation of either view is one call (one round trip) on the entry
   * tables of the shipped DDL ({@code <table>_view_keys}, {@code <table>_view_entries} and the
   * function {@code <table>_view_acquire}; see the module README), and a release is announced like
   * the lock's when notifications are on. On MariaDB: the same tables, and stored procedures for
   * acquire and extend (one {@code CALL} each); releases are seen by the release polling.
   */
  @Override
  public Optional<ReadWriteLeases.Views> readWriteViews(int maxReaders) {
    positive("maxReaders", maxReaders);
    return views == null
        ? Optional.empty()
        : Optional.of(
            new ReadWriteLeases.Views(
                new JdbcViewLeases(this, views, ViewDialect.Role.READ, maxReaders),
                new JdbcViewLeases(this, views, ViewDialect.Role.WRITE, maxReaders)));
  }

  /**
   * {@inheritDoc}
   *
   * <p>On PostgreSQL: each operation is one call (one round trip) on the entry tables of the
   * shipped DDL (see {@link #readWriteViews} and the module README); the slot is the token modulo
   * {@code permits}. On MariaDB: the same, through its stored procedures.
   */
  @Override
  public Optional<LockBackend> permitView(int permits) {
    positive("permits", permits);
    return views == null
        ? Optional.empty()
        : Optional.of(new JdbcViewLeases(this, views, ViewDialect.Role.PERMIT, permits));
  }

  private static void positive(String what, int n) {
    if (n < 1) {
      throw new IllegalArgumentException(what + " must be positive but was " + n);
    }
  }

  /** Whether releases announce their key (notifications on). */
  boolean notifiesReleases() {
    return releaseWaits != null;
  }

  /**
   * Deletes rows whose lease ended (expired, or was released) more than {@code olderThan} ago, but
   * never less than {@link #minimumPurgeAge()} ago: housekeeping for keys that are not used again;
   * an ended row never blocks a grant either way. Conditioned on the end, so a live lease is never
   * removed. PostgreSQL: one statement (it locks only the rows it deletes), bounded by the command
   * timeout like every call. MariaDB: per range of {@value #PURGE_BATCH} keys, a lock-free read of
   * the range and a delete of its ended rows, each statement bounded by the command timeout, so
   * lock statements on the table wait for one batch at most (one delete over the table under
   * MariaDB's default REPEATABLE READ would lock every row and gap it scans until it ends); a
   * failed statement fails the purge, rows deleted by earlier batches stay deleted.
   *
   * @return the number of rows deleted
   */
  public CompletableFuture<Integer> purgeExpired(Duration olderThan) {
    Objects.requireNonNull(olderThan, "olderThan");
    if (olderThan.isNegative()) {
      throw new IllegalArgumentException("olderThan must not be negative but was " + olderThan);
    }
    Duration age = olderThan.compareTo(minimumPurgeAge()) < 0 ? minimumPurgeAge() : olderThan;
    long millis = age.compareTo(MAX_LEASE) > 0 ? MAX_LEASE.toMillis() : age.toMillis();
    if (dialect instanceof MariaDbDialect mariaDb) {
      return purgeBatches(mariaDb, "", millis, 0);
    }
    return run("purgeExpired", dialect.purgeExpired(millis));
  }

  /**
   * MariaDB's purge: for each range of {@value #PURGE_BATCH} keys in key order (read without
   * locks), one short delete of its ended rows; so a lock statement waits for one batch at most.
   */
  private CompletableFuture<Integer> purgeBatches(
      MariaDbDialect mariaDb, String afterKey, long millis, int deleted) {
    return run("purgeExpired", mariaDb.purgeRange(afterKey, PURGE_BATCH))
        .thenCompose(
            range ->
                range.lastKey() == null
                    ? CompletableFuture.completedFuture(deleted)
                    : run("purgeExpired", mariaDb.purgeBatch(afterKey, range.lastKey(), millis))
                        .thenCompose(
                            n ->
                                range.rows() < PURGE_BATCH
                                    ? CompletableFuture.completedFuture(deleted + n)
                                    : purgeBatches(mariaDb, range.lastKey(), millis, deleted + n)));
  }

  /**
   * The least age at which {@link #purgeExpired} deletes an ended row: twice the command timeout
   * plus 5 s each. Why: the first acquire of a key whose row is absent stores the token it drew
   * when its statement started. A later-drawn, larger token of the same key can only have been
   * granted, and its row ended and purged, while that statement was still running, or while the
   * statement of that grant itself was still running (a grant's lease may have started before the
   * statement drew). Statements are cancelled at the command timeout, so no statement runs longer
   * than that plus some slack, and a row is purged only after both could have. Backends sharing a
   * table should use the same command timeout (or purge from the one with the longest).
   */
  public Duration minimumPurgeAge() {
    return commandTimeout.plusSeconds(PURGE_SLACK_SECONDS).multipliedBy(2);
  }

  /**
   * One query against the lock table ({@code SELECT 1 FROM table WHERE false}), bounded by the
   * command timeout: healthy when the database answers and the table is readable. Never completes
   * exceptionally; the description holds the failure kind and SQLState only.
   */
  @Override
  public CompletableFuture<BackendHealth> checkHealth() {
    if (closed.get()) {
      return CompletableFuture.completedFuture(BackendHealth.unhealthy(name() + ": closed"));
    }
    return runner
        .run("health check", dialect.probe(), s -> {}, rows -> Boolean.TRUE)
        .handle(
            (ok, e) -> {
              if (e == null) {
                return BackendHealth.healthy(name() + ": " + tableName() + " reachable");
              }
              Throwable cause = e instanceof CompletionException ? e.getCause() : e;
              LockFailureKind kind =
                  cause instanceof LockBackendException failure
                      ? failure.kind()
                      : LockFailureKind.OTHER;
              Throwable sqlCause = cause.getCause() != null ? cause.getCause() : cause;
              return BackendHealth.unhealthy(
                  name() + ": " + kind + " (" + SqlFailures.describe(sqlCause) + ")");
            });
  }

  /**
   * Does now what the first operation would otherwise pay for: on a worker (never the caller's
   * thread, whatever {@link io.hostloom.locking.spi.support.CallerWaits} says), borrows a
   * connection from the {@code DataSource} (a fresh pool opens its first one: TCP, TLS and
   * authentication where configured) and runs the health probe's query on the lock table ({@code
   * SELECT 1 FROM table WHERE false}: the driver's first statement, and the server checks the table
   * and the user's rights on it). With PostgreSQL notifications on, the listener connects on its
   * own thread from {@link Builder#build()}; the warm-up does not wait for it.
   *
   * <p>Never blocks. Bounded by the command timeout like every call; fails with a {@link
   * LockBackendException}: {@code UNAVAILABLE} when no connection was had in time or the backend is
   * closed, {@code TIMEOUT} when the query got no answer, {@code OTHER} for an SQL error such as a
   * missing table. A failed warm-up changes nothing (the pool keeps trying as it always does).
   */
  @Override
  public CompletableFuture<Void> warmUp() {
    if (closed.get()) {
      return CompletableFuture.failedFuture(
          LockBackendException.unavailable("warm-up failed: backend closed", null));
    }
    return runner.warmUp(dialect.probe());
  }

  /**
   * {@inheritDoc}
   *
   * <p>Signals come from {@code pg_notify} in the release statement of backends with {@linkplain
   * Builder#releaseNotifications notifications on}; when they are off here, the future completes
   * with {@code false} after {@code maxWait}.
   */
  @Override
  public CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait) {
    ARGUMENTS.awaitRelease(key, maxWait);
    String storedKey = StoredText.key(key);
    CompletableFuture<Boolean> wait = waits.await(storedKey, maxWait);
    if (releaseWaits != null && !wait.isDone()) {
      releaseWaits.started(storedKey, wait);
    }
    return wait;
  }

  @Override
  public String name() {
    return dialect.name();
  }

  /**
   * Stops accepting calls (later calls fail {@code UNAVAILABLE}), stops the release listener
   * (pending {@link #awaitRelease} futures complete with {@code false}), and waits up to the
   * command timeout for calls in flight; when interrupted it stops waiting and keeps the interrupt
   * flag. Idempotent. Does not close the {@code DataSource} (nor a supplied executor).
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      if (releaseWaits != null) {
        releaseWaits.close();
      }
      waits.close();
      shutdownThreads();
    }
  }

  private void shutdownThreads() {
    if (ownedExecutor != null) {
      ownedExecutor.shutdown();
      try {
        ownedExecutor.awaitTermination(commandTimeout.toNanos(), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    timer.shutdown(); // deadlines already scheduled still fire
  }

  @Override
  public String toString() {
    return "JdbcLockBackend[table=" + table + ", commandTimeout=" + commandTimeout + "]";
  }

  <T> CompletableFuture<T> run(String op, Dialect.Call<T> call) {
    if (closed.get()) {
      return CompletableFuture.failedFuture(
          LockBackendException.unavailable(op + " failed: backend closed", null));
    }
    return runner.run(op, call.sql(), call.binder(), call.reader());
  }

  private void createTable(DataSource dataSource) {
    int seconds = (int) Math.max(1, Math.min(3600, (commandTimeout.toMillis() + 999) / 1000));
    try (Connection c = dataSource.getConnection()) {
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try {
        dialect.createTable(c, seconds);
        c.commit();
      } catch (SQLException | RuntimeException e) {
        c.rollback();
        throw e;
      } finally {
        c.setAutoCommit(autoCommit);
      }
    } catch (SQLException e) {
      throw SqlFailures.afterSend("create table " + table, e);
    }
  }

  private String tableName() {
    return dialect instanceof MariaDbDialect m ? m.qualifiedTable() : table.toString();
  }

  private ReleaseWaits newReleaseWaits(DataSource dataSource) {
    if (dialect instanceof MariaDbDialect mariaDb) {
      return new PollingReleaseWatcher(
          key -> run("release poll", mariaDb.releaseState(key)), timer);
    }
    try {
      return new ReleaseListener(dataSource, table.notificationChannel(), commandTimeout, waits);
    } catch (NoClassDefFoundError e) {
      throw new IllegalStateException(
          "release notifications need the PostgreSQL JDBC driver (org.postgresql:postgresql) on"
              + " the class path",
          e);
    }
  }

  static String storedKey(String key) {
    ARGUMENTS.key(key);
    return StoredText.key(key);
  }

  static String storedOwner(String owner) {
    ARGUMENTS.owner(owner, "owner");
    return StoredText.escape(owner);
  }

  static String storedData(String data) {
    ARGUMENTS.data(data, "data");
    return StoredText.escape(data);
  }

  /** Whole milliseconds, rounded up, at least 1, at most {@link #MAX_LEASE}. */
  static long leaseMillis(Duration lease) {
    BackendArguments.lease(lease);
    return Math.min(LeaseRounding.ceilMillis(lease), MAX_LEASE.toMillis());
  }

  static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return task -> {
      Thread t = new Thread(task, prefix + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * Options of a {@link JdbcLockBackend}; every setter checks its value. Defaults: table {@link
   * LockTable#defaults()}, {@link #DEFAULT_COMMAND_TIMEOUT}, {@link #DEFAULT_EXECUTOR_THREADS},
   * {@link #DEFAULT_MAX_QUEUED_CALLS}, no table creation, no release notifications.
   */
  public static final class Builder {
    private final DataSource dataSource;
    private LockTable table = LockTable.defaults();
    private SqlDialect dialect = SqlDialect.POSTGRESQL;
    private Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;
    private int executorThreads = DEFAULT_EXECUTOR_THREADS;
    private int maxQueuedCalls = DEFAULT_MAX_QUEUED_CALLS;
    private Executor executor;
    private boolean createTableIfMissing;
    private boolean releaseNotifications;
    private DataSource listenerDataSource;

    private Builder(DataSource dataSource) {
      this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /**
     * The schema of the lock table (default {@value LockTable#DEFAULT_SCHEMA}); it must exist.
     *
     * @throws IllegalArgumentException unless it matches {@value LockTable#IDENTIFIER_PATTERN}
     */
    public Builder schema(String schema) {
      this.table = LockTable.of(schema, table.table());
      return this;
    }

    /**
     * The lock table's name (default {@value LockTable#DEFAULT_TABLE}).
     *
     * @throws IllegalArgumentException unless it matches {@value LockTable#IDENTIFIER_PATTERN}
     */
    public Builder table(String table) {
      this.table = LockTable.of(this.table.schema(), table);
      return this;
    }

    /**
     * The SQL engine (default {@link SqlDialect#POSTGRESQL}). With {@link SqlDialect#MARIADB} the
     * schema is the database, and the default schema {@value LockTable#DEFAULT_SCHEMA} means the
     * connection's own database.
     */
    public Builder dialect(SqlDialect dialect) {
      this.dialect = Objects.requireNonNull(dialect, "dialect");
      return this;
    }

    /** Schema and table at once. */
    public Builder table(LockTable table) {
      this.table = Objects.requireNonNull(table, "table");
      return this;
    }

    /**
     * The bound on every call, from submission to answer: waiting for a worker and a pooled
     * connection, and running the statement (what is left of it becomes the statement's JDBC query
     * timeout, rounded up to whole seconds). Default {@link #DEFAULT_COMMAND_TIMEOUT}.
     */
    public Builder commandTimeout(Duration commandTimeout) {
      BackendArguments.positive("commandTimeout", commandTimeout);
      if (commandTimeout.compareTo(Duration.ofHours(1)) > 0) {
        throw new IllegalArgumentException(
            "commandTimeout must be at most PT1H but was " + commandTimeout);
      }
      this.commandTimeout = commandTimeout;
      return this;
    }

    /**
     * Workers of the backend's own executor (default {@link #DEFAULT_EXECUTOR_THREADS}); more than
     * the pool's maximum size only adds waiting for connections.
     */
    public Builder executorThreads(int executorThreads) {
      if (executorThreads < 1 || executorThreads > 1024) {
        throw new IllegalArgumentException(
            "executorThreads must be between 1 and 1024 but was " + executorThreads);
      }
      this.executorThreads = executorThreads;
      return this;
    }

    /**
     * Calls that may wait for a worker of the backend's own executor (default {@link
     * #DEFAULT_MAX_QUEUED_CALLS}); beyond that, calls fail {@code UNAVAILABLE} at once.
     */
    public Builder maxQueuedCalls(int maxQueuedCalls) {
      if (maxQueuedCalls < 1) {
        throw new IllegalArgumentException(
            "maxQueuedCalls must be positive but was " + maxQueuedCalls);
      }
      this.maxQueuedCalls = maxQueuedCalls;
      return this;
    }

    /**
     * Runs calls on {@code executor} instead of the backend's own (e.g. virtual threads). The
     * caller owns it: {@link JdbcLockBackend#close()} does not shut it down. A rejected call fails
     * {@code UNAVAILABLE}.
     */
    public Builder executor(Executor executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /**
     * Whether {@link #build()} creates the table and its sequence when missing ({@link
     * LockTable#ddl()}, in one transaction, needs CREATE on the schema). Default {@code false}:
     * ship the DDL with your migrations instead.
     */
    public Builder createTableIfMissing(boolean createTableIfMissing) {
      this.createTableIfMissing = createTableIfMissing;
      return this;
    }

    /**
     * Whether releases announce the key with {@code pg_notify} and this backend listens for them
     * ({@link ReleaseSignal}). Default {@code false}. Listening holds one connection of the
     * {@linkplain #listenerDataSource listener data source} for the backend's lifetime, which is
     * therefore required with notifications on; behind PgBouncer in transaction mode LISTEN does
     * not work, so give a direct one. With {@link SqlDialect#MARIADB}, which has no LISTEN/NOTIFY,
     * each {@link JdbcLockBackend#awaitRelease} polls the key instead (reads at intervals from 5 ms
     * doubling to 200 ms, through the operations pool; no listener data source).
     */
    public Builder releaseNotifications(boolean releaseNotifications) {
      this.releaseNotifications = releaseNotifications;
      return this;
    }

    /**
     * Where the listening connection comes from; required with {@link #releaseNotifications} on, so
     * the listener never takes a connection of the operations pool for the backend's lifetime. Give
     * a data source of its own, e.g. a {@code PGSimpleDataSource} on the same URL (one physical
     * connection, reopened after a failure); the operations pool itself is allowed when passed here
     * explicitly (it is then one connection smaller). The connection goes back only after {@code
     * UNLISTEN *} (aborted when that fails).
     */
    public Builder listenerDataSource(DataSource listenerDataSource) {
      this.listenerDataSource = Objects.requireNonNull(listenerDataSource, "listenerDataSource");
      return this;
    }

    /**
     * A started backend. With {@link #createTableIfMissing} this blocks for the DDL (each statement
     * bounded by the command timeout, the connection by the pool's own timeout).
     *
     * @throws LockBackendException when creating the table fails
     * @throws IllegalStateException when notifications are on but the PostgreSQL driver is missing
     *     or no {@link #listenerDataSource} is given
     */
    public JdbcLockBackend build() {
      if (releaseNotifications && listenerDataSource == null && dialect == SqlDialect.POSTGRESQL) {
        throw new IllegalStateException(
            "releaseNotifications(true) needs listenerDataSource(...): a data source of its own"
                + " for the LISTEN connection (e.g. a PGSimpleDataSource on the same URL), so it"
                + " does not hold a connection of the operations pool");
      }
      return new JdbcLockBackend(this);
    }
  }
}
