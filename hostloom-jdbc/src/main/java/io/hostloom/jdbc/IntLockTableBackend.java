package io.hostloom.jdbc;

import io.hostloom.locking.spi.BackendWarmUp;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.support.DelegatingLockBackend;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * A {@link LockBackend} over Spring Integration's JDBC lock table ({@code INT_LOCK}: {@code
 * LOCK_KEY}, {@code REGION}, {@code CLIENT_ID}, {@code CREATED_DATE}, {@code EXPIRED_AFTER}, as
 * {@code DefaultLockRepository} of Spring Integration 7 uses it) on PostgreSQL, so that during a
 * rolling migration a node still on {@code JdbcLockRegistry} and a HostLoom node exclude each other
 * on the same lock key. Opt-in and meant for the migration (see {@code docs/migrating.md});
 * afterwards use {@link JdbcLockBackend}'s own table.
 *
 * <p><b>Rows.</b> The lock key is the backend key without {@link Builder#keyPrefix} (with {@code
 * HostLoomLockRegistry} over a lock of namespace {@code ns}: {@code "ns:lock:"}); {@code LOCK_KEY}
 * is its UUID as {@code JdbcLockRegistry} computes it (the key itself when it is a UUID, else the
 * name-based UUID of its UTF-8 bytes), {@code REGION} the repository's region. A grant writes
 * {@code CLIENT_ID} = the owner (a kernel token as a UUID, so it fits {@code CHAR(36)}), {@code
 * CREATED_DATE} = now and {@code EXPIRED_AFTER} = now + lease; Spring's update takes over a row
 * only when {@code EXPIRED_AFTER < now} or the row is its own client id's, so neither side takes a
 * live lease of the other. A release sets {@code EXPIRED_AFTER} to now and keeps the row (Spring's
 * own {@code deleteExpired} may remove it).
 *
 * <p><b>What the layout cannot carry</b> (the module README has the table): Spring judges expiry by
 * each node's clock ({@code LocalDateTime.now(UTC)}), HostLoom by the database's, so the two agree
 * only as far as the clocks do; the fencing token is {@code CREATED_DATE} in microseconds,
 * increasing over HostLoom's grants but not across a row Spring deleted and re-inserted from a
 * lagging clock; holder data does not fit {@code CHAR(36)} (the kernel stores none); Spring's owner
 * is one id per repository (per JVM), HostLoom's one token per acquisition.
 *
 * <p><b>Calls.</b> As {@link ShedLockTableBackend}: bounded, one statement per round trip, the same
 * failure kinds and round trips. {@link #close()} stops the threads, never the {@code DataSource}.
 */
public final class IntLockTableBackend extends DelegatingLockBackend
    implements BackendWarmUp, AutoCloseable {
  /** Spring Integration's default table prefix ({@code INT_} + {@code LOCK}). */
  public static final String DEFAULT_PREFIX = "INT_";

  /** Spring Integration's default region. */
  public static final String DEFAULT_REGION = "DEFAULT";

  private static final Pattern UUID_FORM =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private final LayoutBackendCore core;
  private final String table;
  private final String region;

  private IntLockTableBackend(Builder b) {
    this.table = b.prefix + "LOCK";
    this.region = b.region;
    String keyPrefix = b.keyPrefix;
    String r = b.region;
    RowLayout layout =
        new RowLayout(
            table,
            List.of("REGION", "LOCK_KEY"),
            key ->
                List.of(
                    r, lockKeyOf(LayoutBackendCore.withoutPrefix(keyPrefix, key, "a lock key"))),
            "CLIENT_ID",
            "CREATED_DATE",
            "EXPIRED_AFTER");
    this.core = b.core(name(), layout);
  }

  /** A builder over {@code dataSource} (a connection pool) and Spring Integration's table. */
  public static Builder builder(DataSource dataSource) {
    return new Builder(dataSource);
  }

  /**
   * The {@code LOCK_KEY} of a Spring Integration lock key: {@code JdbcLockRegistry}'s mapping
   * ({@code UUIDConverter.getUUID}): the key itself, in lower case, when it is written as a UUID
   * ({@code 8-4-4-4-12} hex digits), else the name-based (type 3) UUID of its UTF-8 bytes.
   */
  public static String lockKeyOf(String lockKey) {
    UUID uuid =
        UUID_FORM.matcher(lockKey).matches()
            ? UUID.fromString(lockKey)
            : UUID.nameUUIDFromBytes(lockKey.getBytes(StandardCharsets.UTF_8));
    return uuid.toString();
  }

  @Override
  protected LockBackend delegate() {
    return core;
  }

  @Override
  public String name() {
    return "int-lock-table";
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
    return "IntLockTableBackend[table=" + table + ", region=" + region + "]";
  }

  /** Options of an {@link IntLockTableBackend}; every setter checks its value. */
  public static final class Builder extends LayoutBuilder<Builder> {
    private String prefix = DEFAULT_PREFIX;
    private String region = DEFAULT_REGION;

    private Builder(DataSource dataSource) {
      super(dataSource);
    }

    /** {@code DefaultLockRepository.setPrefix}: the table is the prefix + {@code LOCK}. */
    public Builder prefix(String prefix) {
      LockTable.checkIdentifier("prefix + LOCK", Objects.requireNonNull(prefix) + "LOCK");
      this.prefix = prefix;
      return this;
    }

    /** {@code DefaultLockRepository.setRegion}; default {@value #DEFAULT_REGION}. */
    public Builder region(String region) {
      Objects.requireNonNull(region, "region");
      if (region.isBlank()) {
        throw new IllegalArgumentException("region must not be blank");
      }
      TimestampRowStore.storable("region", region);
      this.region = region;
      return this;
    }

    @Override
    Builder self() {
      return this;
    }

    public IntLockTableBackend build() {
      return new IntLockTableBackend(this);
    }
  }
}
