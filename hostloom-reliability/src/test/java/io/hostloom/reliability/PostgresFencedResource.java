package io.hostloom.reliability;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A {@link FencedResource} in PostgreSQL: one row per key, written only by a conditional {@code
 * UPDATE fenced_resource SET v = ?, fence = ? WHERE id = ? AND fence <= ?}, which PostgreSQL
 * applies atomically (the row lock serialises concurrent writers). A write that matches no row was
 * rejected as stale. {@code <=} rather than {@code <} so that a holder may write more than once
 * with its own token. One connection per instance; thread-safe.
 */
final class PostgresFencedResource implements FencedResource {
  static final String DDL =
      "CREATE TABLE IF NOT EXISTS fenced_resource (id text PRIMARY KEY, fence bigint NOT NULL,"
          + " v bigint NOT NULL, writes bigint NOT NULL)";

  private final Connection connection;

  PostgresFencedResource(String jdbcUrl) {
    try {
      this.connection = DriverManager.getConnection(jdbcUrl);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot connect to the fenced resource", e);
    }
  }

  @Override
  public synchronized boolean write(String key, long token, long value) {
    try {
      int n = update(key, token, value);
      if (n == 0 && fenceOrNull(key) == null) {
        try (PreparedStatement s =
            connection.prepareStatement(
                "INSERT INTO fenced_resource (id, fence, v, writes) VALUES (?, 0, 0, 0)"
                    + " ON CONFLICT (id) DO NOTHING")) {
          s.setString(1, key);
          s.executeUpdate();
        }
        n = update(key, token, value);
      }
      return n == 1;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot write the fenced resource", e);
    }
  }

  private int update(String key, long token, long value) throws SQLException {
    try (PreparedStatement s =
        connection.prepareStatement(
            "UPDATE fenced_resource SET v = ?, fence = ?, writes = writes + 1"
                + " WHERE id = ? AND fence <= ?")) {
      s.setLong(1, value);
      s.setLong(2, token);
      s.setString(3, key);
      s.setLong(4, token);
      return s.executeUpdate();
    }
  }

  @Override
  public synchronized long fence(String key) {
    try {
      Long f = fenceOrNull(key);
      return f == null ? 0 : f;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the fenced resource", e);
    }
  }

  @Override
  public synchronized long accepted(String key) {
    try (PreparedStatement s =
        connection.prepareStatement("SELECT writes FROM fenced_resource WHERE id = ?")) {
      s.setString(1, key);
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? r.getLong(1) : 0;
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot read the fenced resource", e);
    }
  }

  private Long fenceOrNull(String key) throws SQLException {
    try (PreparedStatement s =
        connection.prepareStatement("SELECT fence FROM fenced_resource WHERE id = ?")) {
      s.setString(1, key);
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? r.getLong(1) : null;
      }
    }
  }

  @Override
  public synchronized void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      // tearing down
    }
  }
}
