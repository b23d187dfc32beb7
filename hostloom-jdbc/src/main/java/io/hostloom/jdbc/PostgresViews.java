package io.hostloom.jdbc;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.ReleaseOutcome;
import java.util.Optional;

/**
 * The native views on PostgreSQL, over the tables {@code <table>_view_keys} (one row per view key:
 * the token counter, and the row every grant of the key locks first) and {@code
 * <table>_view_entries} (one row per entry) of the shipped DDL. An acquire is one call of the DDL's
 * PL/pgSQL function {@code <table>_view_acquire}: it has to read the key's entries <em>after</em>
 * locking the key's row, which one statement under READ COMMITTED cannot (all of a statement's
 * reads use the snapshot of its start, so two grants racing into the last permit could both miss
 * the other); each statement of a volatile function takes a fresh snapshot. Extend, release and
 * read change or read one owner's entry only, so each is one plain statement that needs no key
 * lock: an {@code UPDATE}/{@code DELETE} re-checks its condition on the latest row version. Every
 * "now" is {@code STATEMENT_TIMESTAMP()}; time left is measured when the row is returned.
 */
final class PostgresViews implements ViewDialect {
  private final String acquire;
  private final String extend;
  private final String release;
  private final String releaseAndNotify;
  private final String read;

  PostgresViews(LockTable table) {
    String prefix = "\"" + table.schema() + "\".\"" + table.table();
    String entries = prefix + "_view_entries\"";
    String remaining =
        "((EXTRACT(EPOCH FROM e.expires_at) - EXTRACT(EPOCH FROM CLOCK_TIMESTAMP())) * 1000000)"
            + "::BIGINT";
    acquire =
        "SELECT o_granted, o_owner, o_data, o_token, o_micros FROM "
            + prefix
            + "_view_acquire\"(?::CHAR, ?, ?, ?, ?::BIGINT, ?::INTEGER)";
    // a waiting writer (token 0) is never extended
    extend =
        """
        UPDATE {E} AS e SET expires_at = STATEMENT_TIMESTAMP() + ?::BIGINT * INTERVAL '1 millisecond'
        WHERE e.view_key = ? AND e.role = ?::CHAR AND e.owner_hash = SHA256(CONVERT_TO(?, 'UTF8'))
          AND e.expires_at > STATEMENT_TIMESTAMP() AND e.fencing_token <> 0
        RETURNING TRUE"""
            .replace("{E}", entries);
    String delete =
        """
        DELETE FROM {E} AS e
        WHERE e.view_key = ? AND e.role = ?::CHAR AND e.owner_hash = SHA256(CONVERT_TO(?, 'UTF8'))
          AND e.expires_at > STATEMENT_TIMESTAMP()
        RETURNING e.view_key"""
            .replace("{E}", entries);
    release = delete;
    releaseAndNotify =
        "WITH d AS ("
            + delete
            + ")\nSELECT d.view_key FROM d LEFT JOIN LATERAL (SELECT PG_NOTIFY('"
            + table.notificationChannel()
            + "', d.view_key)) p ON TRUE";
    read =
        """
        SELECT e.owner, e.data, e.fencing_token, {REMAINING} FROM {E} AS e
        WHERE e.view_key = ? AND e.role = ?::CHAR AND e.expires_at > STATEMENT_TIMESTAMP()
        ORDER BY e.expires_at, e.owner LIMIT 1"""
            .replace("{REMAINING}", remaining)
            .replace("{E}", entries);
  }

  @Override
  public Dialect.Call<AcquireOutcome> acquire(
      Role role, String key, String owner, String data, long leaseMillis, int max) {
    return new Dialect.Call<>(
        acquire,
        s -> {
          s.setString(1, role.code);
          s.setString(2, key);
          s.setString(3, owner);
          s.setString(4, data);
          s.setLong(5, leaseMillis);
          s.setInt(6, max);
        },
        rows -> {
          if (!rows.next()) {
            throw new IllegalStateException("view acquire returned no row");
          }
          return rows.getBoolean(1)
              ? AcquireOutcome.granted(rows.getLong(4))
              : AcquireOutcome.held(Dialect.record(rows, 2));
        });
  }

  @Override
  public Dialect.Call<ExtendOutcome> extend(Role role, String key, String owner, long leaseMillis) {
    return new Dialect.Call<>(
        extend,
        s -> {
          s.setLong(1, leaseMillis);
          s.setString(2, key);
          s.setString(3, role.code);
          s.setString(4, owner);
        },
        rows -> rows.next() ? ExtendOutcome.succeeded() : ExtendOutcome.absent());
  }

  @Override
  public Dialect.Call<ReleaseOutcome> release(Role role, String key, String owner, boolean notify) {
    return new Dialect.Call<>(
        notify ? releaseAndNotify : release,
        s -> {
          s.setString(1, key);
          s.setString(2, role.code);
          s.setString(3, owner);
        },
        rows -> rows.next() ? ReleaseOutcome.succeeded() : ReleaseOutcome.absent());
  }

  @Override
  public Dialect.Call<Optional<LeaseRecord>> read(Role role, String key) {
    return new Dialect.Call<>(
        read,
        s -> {
          s.setString(1, key);
          s.setString(2, role.code);
        },
        rows -> rows.next() ? Optional.of(Dialect.record(rows, 1)) : Optional.empty());
  }
}
