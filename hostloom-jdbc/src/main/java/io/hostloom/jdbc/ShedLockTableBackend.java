package io.hostloom.jdbc;

import io.hostloom.locking.spi.BackendWarmUp;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.support.DelegatingLockBackend;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;

/**
 * A {@link LockBackend} over ShedLock's own JDBC table ({@code shedlock}: {@code name}, {@code
 * lock_until}, {@code locked_at}, {@code locked_by}) on PostgreSQL, so that during a rolling
 * migration a node still on ShedLock's {@code JdbcTemplateLockProvider} and a HostLoom node exclude
 * each other on the same job name. Opt-in and meant for the migration (see {@code
 * docs/migrating.md}); afterwards use {@link JdbcLockBackend}'s own table, which carries what this
 * layout cannot.
 *
 * <p><b>Rows.</b> The lock {@code name} is the backend key without {@link Builder#keyPrefix} (with
 * {@code HostLoomLockProvider}: its {@code keyOf("")}). A grant writes {@code lock_until} = now +
 * lease, {@code locked_at} = now and {@code locked_by} = the owner (a kernel token as a UUID);
 * ShedLock's own update takes over a row only when {@code lock_until <= now}, so neither side takes
 * a live lease of the other. A release sets {@code lock_until} to now and keeps the row, as
 * ShedLock's unlock does. Every write is one statement conditioned on the row as read.
 *
 * <p><b>What the layout cannot carry</b> (the module README has the table): expiry is judged by the
 * <em>database's</em> clock here, but by each ShedLock node's clock unless those nodes use {@code
 * usingDbTime()}; the fencing token is {@code locked_at} in microseconds, increasing over the
 * grants HostLoom makes but not across a grant by a ShedLock node whose clock lags; holder data
 * must fit {@code locked_by} with the owner (255 characters in ShedLock's DDL); ShedLock's
 * client-time unlock is not owner-checked, so a ShedLock node that overran {@code lockAtMostFor}
 * can end the lease of whoever holds the name next (as among ShedLock nodes).
 *
 * <p><b>Calls.</b> As {@link JdbcLockBackend}: JDBC on the backend's own workers, every future
 * bounded by the command timeout, failures {@code UNAVAILABLE} (never sent), {@code TIMEOUT} (sent,
 * no answer), {@code OTHER} (including a name longer than the {@code name} column). Round trips:
 * acquire 1 with no row or when refused, 2 once the row exists (the insert answers the row, then
 * the conditional update); extend, release and replace 2 (read, conditional write); read 1. {@link
 * #close()} stops the threads, never the {@code DataSource}.
 */
public final class ShedLockTableBackend extends DelegatingLockBackend
    implements BackendWarmUp, AutoCloseable {
  /** ShedLock's default table name. */
  public static final String DEFAULT_TABLE = "shedlock";

  private final LayoutBackendCore core;
  private final String table;

  private ShedLockTableBackend(Builder b) {
    this.table = b.table;
    String prefix = b.keyPrefix;
    RowLayout layout =
        new RowLayout(
            b.table,
            List.of("name"),
            key -> List.of(LayoutBackendCore.withoutPrefix(prefix, key, "a ShedLock name")),
            "locked_by",
            "locked_at",
            "lock_until");
    this.core = b.core(name(), layout);
  }

  /** A builder over {@code dataSource} (a connection pool) and ShedLock's table. */
  public static Builder builder(DataSource dataSource) {
    return new Builder(dataSource);
  }

  @Override
  protected LockBackend delegate() {
    return core;
  }

  @Override
  public String name() {
    return "shedlock-table";
  }

  /**
   * On a worker, borrows a pooled connection and runs one {@code SELECT 1 FROM table WHERE FALSE},
   * bounded by the command timeout, as {@link JdbcLockBackend#warmUp()} does; never blocks.
   */
  @Override
  public CompletableFuture<Void> warmUp() {
    return core.warmUp();
  }

  /** Stops the backend's threads (at most the command timeout); not the {@code DataSource}. */
  @Override
  public void close() {
    core.close();
  }

  @Override
  public String toString() {
    return "ShedLockTableBackend[table=" + table + "]";
  }

  /** Options of a {@link ShedLockTableBackend}; every setter checks its value. */
  public static final class Builder extends LayoutBuilder<Builder> {
    private String table = DEFAULT_TABLE;

    private Builder(DataSource dataSource) {
      super(dataSource);
    }

    /** The table ShedLock's provider was given; default {@value #DEFAULT_TABLE}, unquoted. */
    public Builder table(String table) {
      this.table = LockTable.checkIdentifier("table", table);
      return this;
    }

    @Override
    Builder self() {
      return this;
    }

    public ShedLockTableBackend build() {
      return new ShedLockTableBackend(this);
    }
  }
}
