package io.hostloom.jdbc;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.ReleaseOutcome;
import java.util.Optional;

/**
 * The native views on MariaDB, over the tables {@code <table>_view_keys} and {@code
 * <table>_view_entries} of the shipped DDL. Acquire and extend are one {@code CALL} each of the
 * DDL's stored procedures {@code <table>_view_acquire} and {@code <table>_view_extend}: one round
 * trip, one transaction inside. Why procedures: an acquire has to lock the key's row and then read
 * and write its entries, more than one statement can say in MariaDB (no CTE with writes, no {@code
 * RETURNING} on {@code UPDATE}); a procedure keeps it one round trip without turning on the
 * driver's multi-statement mode for the whole pool. Release is one {@code DELETE ... RETURNING},
 * read one {@code SELECT}. Every "now" is {@code UTC_TIMESTAMP(6)}. Releases are announced through
 * the backend's polling: its poll of a key also reads a digest of the key's view entries.
 */
final class MariaDbViews implements ViewDialect {
  private final String acquire;
  private final String extend;
  private final String release;
  private final String read;

  MariaDbViews(LockTable table) {
    String entries = MariaDbDialect.qualified(table, table.table() + "_view_entries");
    acquire =
        "CALL "
            + MariaDbDialect.qualified(table, table.table() + "_view_acquire")
            + "(?, ?, ?, ?, ?, ?)";
    extend =
        "CALL " + MariaDbDialect.qualified(table, table.table() + "_view_extend") + "(?, ?, ?, ?)";
    release =
        """
        DELETE FROM {E}
        WHERE view_key = ? AND role = ? AND owner_hash = UNHEX(SHA2(?, 256))
          AND expires_at > UTC_TIMESTAMP(6)
        RETURNING 1"""
            .replace("{E}", entries);
    read =
        """
        SELECT owner, data, fencing_token,
          TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), expires_at)
            - GREATEST(0, TIMESTAMPDIFF(MICROSECOND, NOW(6), SYSDATE(6)))
        FROM {E}
        WHERE view_key = ? AND role = ? AND expires_at > UTC_TIMESTAMP(6)
        ORDER BY expires_at, owner LIMIT 1"""
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
          s.setLong(5, leaseMillis * 1000);
          s.setInt(6, max);
        },
        rows -> {
          if (!rows.next() || rows.getString(2) == null) {
            throw new IllegalStateException("view acquire returned no entry");
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
          s.setString(1, role.code);
          s.setString(2, key);
          s.setString(3, owner);
          s.setLong(4, leaseMillis * 1000);
        },
        rows ->
            rows.next() && rows.getInt(1) > 0 ? ExtendOutcome.succeeded() : ExtendOutcome.absent());
  }

  @Override
  public Dialect.Call<ReleaseOutcome> release(Role role, String key, String owner, boolean notify) {
    return new Dialect.Call<>(
        release,
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
