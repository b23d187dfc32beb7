package io.hostloom.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;

/**
 * The MariaDB database most MariaDB tests share: database {@value #NAME} on {@link
 * MariaDbServer#shared()}, one HikariCP pool, the default lock table created once.
 */
final class MariaDbTestDatabase {
  static final String NAME = "hostloom";

  private static HikariDataSource pool;

  private MariaDbTestDatabase() {}

  static synchronized HikariDataSource pool() {
    if (pool == null) {
      MariaDbServer server = MariaDbServer.shared();
      server.createDatabase(NAME);
      pool = server.pool(NAME, 40, Duration.ofSeconds(5));
      backendOn(pool).createTableIfMissing(true).build().close();
    }
    return pool;
  }

  /** A MariaDB backend builder over the shared pool and the default table. */
  static JdbcLockBackend.Builder backend() {
    return backendOn(pool());
  }

  static JdbcLockBackend.Builder backendOn(javax.sql.DataSource dataSource) {
    return JdbcLockBackend.builder(dataSource).dialect(SqlDialect.MARIADB);
  }

  static MariaDbServer server() {
    pool();
    return MariaDbServer.shared();
  }
}
