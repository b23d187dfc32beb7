package io.hostloom.jdbc;

import io.hostloom.locking.spi.support.Claim;
import io.hostloom.locking.spi.support.VersionedRecord;
import io.hostloom.locking.spi.support.VersionedRecordStore;
import io.hostloom.locking.spi.support.WriteResult;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * The versioned-record strategy over a foreign lock table on PostgreSQL whose rows hold a lease as
 * holder text, grant time and expiry ({@link RowLayout}): ShedLock's {@code shedlock}, Spring
 * Integration's {@code INT_LOCK}. One statement per call, in auto-commit.
 *
 * <ul>
 *   <li><b>Clock.</b> Now is the database's, as UTC wall time ({@code timezone('utc',
 *       CURRENT_TIMESTAMP)}, what ShedLock's {@code usingDbTime()} writes into {@code TIMESTAMP}
 *       columns); a row is live while its expiry is after now.
 *   <li><b>Version.</b> The holder, grant time and expiry as read: a write applies only if none of
 *       them changed, whoever changed them (the old library's statements included).
 *   <li><b>Fencing token.</b> The grant time in microseconds since the epoch. A new grant sets it
 *       to the later of now and the previous grant time plus 1 µs, so tokens increase over the
 *       row's grants; an extension keeps it. A release keeps the row with its expiry set to now (as
 *       ShedLock's unlock does), so the grant time survives releases.
 * </ul>
 */
final class TimestampRowStore implements VersionedRecordStore<TimestampRowStore.Version> {
  private static final String NOW = "timezone('utc', CURRENT_TIMESTAMP)";
  private static final String MICROS = " * INTERVAL '1 microsecond'";

  /** Longer leases are shortened to this (a microsecond count far from overflow). */
  static final Duration MAX_LEASE = JdbcLockBackend.MAX_LEASE;

  /** What a conditional write compares: the row as read. */
  record Version(String holder, LocalDateTime grantedAt, LocalDateTime expiresAt) {}

  private final RowLayout layout;
  private final StatementRunner runner;
  private final String readSql;
  private final String createSql;
  private final String grantSql;
  private final String extendSql;
  private final String releaseSql;

  TimestampRowStore(RowLayout layout, StatementRunner runner) {
    this.layout = layout;
    this.runner = runner;
    String t = layout.table();
    String by = layout.holder();
    String at = layout.grantedAt();
    String until = layout.expiresAt();
    String key =
        layout.keyColumns().stream().map(c -> c + " = ?").collect(Collectors.joining(" AND "));
    String version =
        key
            + " AND COALESCE(CAST("
            + by
            + " AS VARCHAR), '') = ? AND "
            + at
            + " = ? AND "
            + until
            + " = ?";
    String columns = "COALESCE(CAST(" + by + " AS VARCHAR), ''), " + at + ", " + until;
    // measured when the row is returned: a refused insert waited for the winner's, whose expiry
    // is its own (later) transaction time plus the lease, so the statement's own NOW would answer
    // more than the winner's lease left
    String remaining =
        "CAST(EXTRACT(EPOCH FROM ("
            + until
            + " - timezone('utc', clock_timestamp()))) * 1000000 AS BIGINT)";
    // the insert, and when it finds the row, that row (as of the statement's snapshot; a row
    // committed after it is not seen, and the answer is then "lost" without the current record)
    this.createSql =
        "WITH ins AS (INSERT INTO "
            + t
            + " ("
            + String.join(", ", layout.keyColumns())
            + ", "
            + by
            + ", "
            + at
            + ", "
            + until
            + ") VALUES ("
            + "?, ".repeat(layout.keyColumns().size())
            + "?, "
            + NOW
            + ", "
            + NOW
            + " + ?"
            + MICROS
            + ") ON CONFLICT DO NOTHING RETURNING "
            + at
            + ") SELECT TRUE, NULL, "
            + at
            + ", NULL, NULL FROM ins UNION ALL SELECT FALSE, "
            + columns
            + ", "
            + remaining
            + " FROM "
            + t
            + " WHERE "
            + key
            + " AND NOT EXISTS (SELECT 1 FROM ins)";
    this.readSql = "SELECT " + columns + ", " + remaining + " FROM " + t + " WHERE " + key;
    String newExpiry = until + " = " + NOW + " + ?" + MICROS;
    String later = "GREATEST(" + NOW + ", " + at + " + INTERVAL '1 microsecond')";
    this.grantSql = update(t, by + " = ?, " + at + " = " + later + ", " + newExpiry, version, at);
    this.extendSql = update(t, by + " = ?, " + newExpiry, version, at);
    this.releaseSql = update(t, until + " = LEAST(" + until + ", " + NOW + ")", version, at);
  }

  /** A conditional update of the row as read, answering the grant time it leaves. */
  private static String update(String table, String set, String version, String at) {
    return "UPDATE " + table + " SET " + set + " WHERE " + version + " RETURNING " + at;
  }

  @Override
  public CompletableFuture<Optional<VersionedRecord<Version>>> read(String key) {
    List<String> k = layout.keyValues().apply(key);
    return runner.run(
        "read",
        readSql,
        s -> bindKey(s, 1, k),
        rows -> {
          if (!rows.next()) {
            return Optional.empty();
          }
          return Optional.of(record(rows, 1));
        });
  }

  @Override
  public CompletableFuture<WriteResult<Version>> create(String key, Claim claim) {
    List<String> k = layout.keyValues().apply(key);
    return runner.run(
        "create",
        createSql,
        s -> {
          int i = bindKey(s, 1, k);
          s.setString(i++, HolderText.encode(claim.owner(), claim.data()));
          s.setLong(i++, micros(claim.lease()));
          bindKey(s, i, k);
        },
        rows -> {
          if (!rows.next()) {
            return WriteResult.lost();
          }
          if (rows.getBoolean(1)) {
            return WriteResult.written(token(rows.getObject(3, LocalDateTime.class)));
          }
          return WriteResult.lost(Optional.of(record(rows, 2)));
        });
  }

  @Override
  public CompletableFuture<WriteResult<Version>> compareAndSet(
      String key, Version version, Claim claim) {
    List<String> k = layout.keyValues().apply(key);
    return runner.run(
        claim.isNewGrant() ? "grant" : "extend",
        claim.isNewGrant() ? grantSql : extendSql,
        s -> {
          s.setString(1, HolderText.encode(claim.owner(), claim.data()));
          s.setLong(2, micros(claim.lease()));
          bindVersion(s, bindKey(s, 3, k), version);
        },
        TimestampRowStore::written);
  }

  @Override
  public CompletableFuture<WriteResult<Version>> compareAndDelete(String key, Version version) {
    List<String> k = layout.keyValues().apply(key);
    return runner.run(
        "release",
        releaseSql,
        s -> bindVersion(s, bindKey(s, 1, k), version),
        rows -> rows.next() ? WriteResult.<Version>deleted() : WriteResult.<Version>lost());
  }

  /** A released or expired row stays as the marker of its grant time (the fencing history). */
  @Override
  public CompletableFuture<WriteResult<Version>> evictExpired(String key, Version version) {
    return CompletableFuture.completedFuture(WriteResult.deleted());
  }

  /** PostgreSQL text holds neither NUL nor a lone surrogate (the driver would send {@code ?}). */
  @Override
  public void checkStorable(String owner, String data) {
    storable("owner", owner);
    storable("data", data);
  }

  static void storable(String what, String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == 0) {
        throw new IllegalArgumentException(
            what + " contains NUL, which PostgreSQL text cannot hold");
      }
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new IllegalArgumentException(
            what + " contains a lone surrogate, which PostgreSQL text cannot hold");
      }
    }
  }

  /** The row in the four columns from {@code first}: holder, grant time, expiry, µs left. */
  private static VersionedRecord<Version> record(ResultSet rows, int first) throws SQLException {
    String text = rows.getString(first);
    LocalDateTime at = rows.getObject(first + 1, LocalDateTime.class);
    LocalDateTime until = rows.getObject(first + 2, LocalDateTime.class);
    long remainingMicros = rows.getLong(first + 3);
    HolderText.Holder h = HolderText.decode(text);
    return new VersionedRecord<>(
        new Version(text, at, until),
        h.owner(),
        h.data(),
        token(at),
        Duration.ofNanos(Math.multiplyExact(remainingMicros, 1000L)));
  }

  private static WriteResult<Version> written(ResultSet rows) throws SQLException {
    if (!rows.next()) {
      return WriteResult.lost();
    }
    return WriteResult.written(token(rows.getObject(1, LocalDateTime.class)));
  }

  private static int bindKey(PreparedStatement s, int first, List<String> key) throws SQLException {
    int i = first;
    for (String v : key) {
      s.setString(i++, v);
    }
    return i;
  }

  private static void bindVersion(PreparedStatement s, int first, Version v) throws SQLException {
    s.setString(first, v.holder());
    s.setObject(first + 1, v.grantedAt());
    s.setObject(first + 2, v.expiresAt());
  }

  /** Microseconds since the epoch of a UTC wall time: positive for any time after 1970. */
  static long token(LocalDateTime grantedAt) {
    return grantedAt.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + grantedAt.getNano() / 1000;
  }

  private static long micros(Duration lease) {
    Duration d = lease.compareTo(MAX_LEASE) > 0 ? MAX_LEASE : lease;
    return d.toNanos() / 1000 + (d.toNanos() % 1000 == 0 ? 0 : 1);
  }
}
