package io.hostloom.benchmarks.faces;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Plain JDBC on the caller's thread, one minimal auto-commit statement per operation, on its own
 * table ({@code key, owner, data, expires_at}; no fencing token, no sequence, no holder record on
 * refusal): acquire/lock = {@code INSERT ... ON CONFLICT DO UPDATE ... WHERE expired RETURNING},
 * refresh = owner-checked {@code UPDATE}, relock = owner-checked {@code UPDATE} of owner and data,
 * unlock = owner-checked {@code DELETE}, get lock = {@code SELECT}. Expiry on the server's clock.
 */
final class RawPostgresFace implements Face {
  private static final String OWNER = "0123456789abcdef0123456789abcdef";
  private static final String LEASE = "30 seconds";

  private final CountingDataSource ds;

  RawPostgresFace(CountingDataSource ds) throws SQLException {
    this.ds = ds;
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE IF NOT EXISTS raw_locks (lock_key text PRIMARY KEY, owner text NOT NULL,"
              + " data text NOT NULL, expires_at timestamptz NOT NULL)");
    }
  }

  private int update(String sql, String... args) throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setString(i + 1, args[i]);
      }
      return ps.executeUpdate();
    }
  }

  private static void once(int rows, String what) {
    if (rows != 1) {
      throw new IllegalStateException(what + " changed " + rows + " rows");
    }
  }

  private void insert(String key, String owner, String data) throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "INSERT INTO raw_locks AS l VALUES (?, ?, ?, statement_timestamp() + interval '"
                    + LEASE
                    + "') ON CONFLICT (lock_key) DO UPDATE SET owner = excluded.owner, data ="
                    + " excluded.data, expires_at = excluded.expires_at WHERE l.expires_at <="
                    + " statement_timestamp() OR l.owner = excluded.owner RETURNING owner")) {
      ps.setString(1, key);
      ps.setString(2, owner);
      ps.setString(3, data);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new IllegalStateException("held");
        }
      }
    }
  }

  @Override
  public void acquire(String key) throws SQLException {
    insert(key, OWNER, "");
  }

  @Override
  public void release(String key) throws SQLException {
    once(update("DELETE FROM raw_locks WHERE lock_key = ? AND owner = ?", key, OWNER), "release");
  }

  @Override
  public void lock(String file, String lockId) throws SQLException {
    insert(file, lockId, lockId);
  }

  @Override
  public void refresh(String file, String lockId) throws SQLException {
    once(
        update(
            "UPDATE raw_locks SET expires_at = statement_timestamp() + interval '"
                + LEASE
                + "' WHERE lock_key = ? AND owner = ? AND expires_at > statement_timestamp()",
            file,
            lockId),
        "refresh");
  }

  @Override
  public String getLock(String file) throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT data, expires_at - statement_timestamp() FROM raw_locks WHERE lock_key = ?"
                    + " AND expires_at > statement_timestamp()")) {
      ps.setString(1, file);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : "";
      }
    }
  }

  @Override
  public void relock(String file, String newLockId, String oldLockId) throws SQLException {
    once(
        update(
            "UPDATE raw_locks SET owner = ?, data = ?, expires_at = statement_timestamp() +"
                + " interval '"
                + LEASE
                + "' WHERE lock_key = ? AND owner = ? AND expires_at > statement_timestamp()",
            newLockId,
            newLockId,
            file,
            oldLockId),
        "relock");
  }

  @Override
  public void unlock(String file, String lockId) throws SQLException {
    once(update("DELETE FROM raw_locks WHERE lock_key = ? AND owner = ?", file, lockId), "unlock");
  }

  @Override
  public long roundTrips() {
    return ds.count();
  }

  @Override
  public void close() {}
}
