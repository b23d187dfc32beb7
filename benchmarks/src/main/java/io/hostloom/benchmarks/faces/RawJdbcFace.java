package io.hostloom.benchmarks.faces;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Plain JDBC on the caller's thread, one minimal auto-commit statement per operation, on its own
 * table ({@code key, owner, data, expires_at}; no fencing token, no sequence, no holder record on
 * refusal): acquire/lock = an upsert that takes the row only when free, expired or already the
 * caller's and returns the owner, refresh = owner-checked {@code UPDATE}, relock = owner-checked
 * {@code UPDATE} of owner and data, unlock = owner-checked {@code DELETE}, get lock = {@code
 * SELECT}. Expiry on the server's clock. The statements per SQL engine are a {@link Sql}.
 */
final class RawJdbcFace implements Face {
  private static final String OWNER = "0123456789abcdef0123456789abcdef";

  /**
   * One engine's statements; parameters in the order of the calls below. {@code insert}: key,
   * owner, data, returns the owner holding the row afterwards; {@code refresh}: key, owner; {@code
   * relock}: new owner, new data, key, old owner; {@code delete}: key, owner; {@code select}: key,
   * returns data and the time left.
   */
  record Sql(
      String table, String insert, String refresh, String relock, String delete, String select) {
    private static final String PG_NOW = "statement_timestamp()";
    private static final String PG_LEASE = PG_NOW + " + interval '30 seconds'";
    private static final String MARIA_NOW = "UTC_TIMESTAMP(6)";
    private static final String MARIA_LEASE = MARIA_NOW + " + INTERVAL 30 SECOND";

    static Sql postgres() {
      return new Sql(
          "CREATE TABLE IF NOT EXISTS raw_locks (lock_key text PRIMARY KEY, owner text NOT NULL,"
              + " data text NOT NULL, expires_at timestamptz NOT NULL)",
          "INSERT INTO raw_locks AS l VALUES (?, ?, ?, "
              + PG_LEASE
              + ") ON CONFLICT (lock_key) DO UPDATE SET owner = excluded.owner, data ="
              + " excluded.data, expires_at = excluded.expires_at WHERE l.expires_at <= "
              + PG_NOW
              + " OR l.owner = excluded.owner RETURNING owner",
          "UPDATE raw_locks SET expires_at = "
              + PG_LEASE
              + " WHERE lock_key = ? AND owner = ? AND expires_at > "
              + PG_NOW,
          "UPDATE raw_locks SET owner = ?, data = ?, expires_at = "
              + PG_LEASE
              + " WHERE lock_key = ? AND owner = ? AND expires_at > "
              + PG_NOW,
          "DELETE FROM raw_locks WHERE lock_key = ? AND owner = ?",
          "SELECT data, expires_at - "
              + PG_NOW
              + " FROM raw_locks WHERE lock_key = ? AND expires_at > "
              + PG_NOW);
    }

    /**
     * MariaDB: {@code INSERT ... ON DUPLICATE KEY UPDATE ... RETURNING} (its assignments run left
     * to right and see earlier ones, so data and owner are decided on the old row and the expiry on
     * the new owner).
     */
    static Sql mariaDb() {
      String mayTake = "(expires_at <= " + MARIA_NOW + " OR owner = VALUES(owner))";
      return new Sql(
          "CREATE TABLE IF NOT EXISTS raw_locks (lock_key varchar(255) PRIMARY KEY, owner"
              + " varchar(255) NOT NULL, data text NOT NULL, expires_at datetime(6) NOT NULL)",
          "INSERT INTO raw_locks VALUES (?, ?, ?, "
              + MARIA_LEASE
              + ") ON DUPLICATE KEY UPDATE data = IF("
              + mayTake
              + ", VALUES(data), data), owner = IF("
              + mayTake
              + ", VALUES(owner), owner), expires_at = IF(owner = VALUES(owner),"
              + " VALUES(expires_at), expires_at) RETURNING owner",
          "UPDATE raw_locks SET expires_at = "
              + MARIA_LEASE
              + " WHERE lock_key = ? AND owner = ? AND expires_at > "
              + MARIA_NOW,
          "UPDATE raw_locks SET owner = ?, data = ?, expires_at = "
              + MARIA_LEASE
              + " WHERE lock_key = ? AND owner = ? AND expires_at > "
              + MARIA_NOW,
          "DELETE FROM raw_locks WHERE lock_key = ? AND owner = ?",
          "SELECT data, TIMESTAMPDIFF(MICROSECOND, "
              + MARIA_NOW
              + ", expires_at) FROM raw_locks WHERE lock_key = ? AND expires_at > "
              + MARIA_NOW);
    }
  }

  private final CountingDataSource ds;
  private final Sql sql;

  RawJdbcFace(CountingDataSource ds, Sql sql) throws SQLException {
    this.ds = ds;
    this.sql = sql;
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute(sql.table());
    }
  }

  private int update(String statement, String... args) throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement(statement)) {
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
        PreparedStatement ps = c.prepareStatement(sql.insert())) {
      ps.setString(1, key);
      ps.setString(2, owner);
      ps.setString(3, data);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next() || !owner.equals(rs.getString(1))) {
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
    once(update(sql.delete(), key, OWNER), "release");
  }

  @Override
  public void lock(String file, String lockId) throws SQLException {
    insert(file, lockId, lockId);
  }

  @Override
  public void refresh(String file, String lockId) throws SQLException {
    once(update(sql.refresh(), file, lockId), "refresh");
  }

  @Override
  public String getLock(String file) throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement(sql.select())) {
      ps.setString(1, file);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : "";
      }
    }
  }

  @Override
  public void relock(String file, String newLockId, String oldLockId) throws SQLException {
    once(update(sql.relock(), newLockId, newLockId, file, oldLockId), "relock");
  }

  @Override
  public void unlock(String file, String lockId) throws SQLException {
    once(update(sql.delete(), file, lockId), "unlock");
  }

  @Override
  public long roundTrips() {
    return ds.count();
  }

  @Override
  public void close() {}
}
