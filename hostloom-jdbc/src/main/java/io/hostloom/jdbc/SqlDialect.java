package io.hostloom.jdbc;

/**
 * The SQL engine a {@link JdbcLockBackend} speaks. Each dialect keeps one statement (one round
 * trip) per operation, decides expiry on the database server's clock and draws fencing tokens under
 * the key's row lock; the module README describes each dialect's statements and limits.
 */
public enum SqlDialect {
  /**
   * PostgreSQL 12 or later: {@code INSERT ... ON CONFLICT}, {@code UPDATE ... RETURNING}, a
   * sequence, optional LISTEN/NOTIFY release signals. The default.
   */
  POSTGRESQL,

  /**
   * MariaDB 10.5 or later (tested on 10.11): {@code INSERT ... ON DUPLICATE KEY UPDATE ...
   * RETURNING} for every write, a MariaDB sequence, release signals by polling. Not MySQL: MySQL
   * has neither {@code RETURNING} nor sequences.
   */
  MARIADB;

  Dialect create(LockTable table) {
    return switch (this) {
      case POSTGRESQL -> new PostgresDialect(table);
      case MARIADB -> new MariaDbDialect(table);
    };
  }
}
