package io.hostloom.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The database most tests share: database {@value #NAME} on {@link PostgresServer#shared()}, one
 * HikariCP pool, and the default lock table created once.
 */
final class TestDatabase {
  static final String NAME = "hostloom";

  private static HikariDataSource pool;

  private TestDatabase() {}

  /** The shared pool; the first call starts the server and creates the table. */
  static synchronized HikariDataSource pool() {
    if (pool == null) {
      PostgresServer server = PostgresServer.shared();
      server.createDatabase(NAME);
      pool = server.pool(NAME, 40, Duration.ofSeconds(5));
      JdbcLockBackend.builder(pool).createTableIfMissing(true).build().close();
    }
    return pool;
  }

  /**
   * An unpooled data source on the shared database for the release listener (one physical
   * connection per getConnection), as the backend requires for notifications.
   */
  static DataSource listenerSource() {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setURL(server().jdbcUrl(NAME));
    ds.setUser("postgres");
    return ds;
  }

  /**
   * A notifying backend builder over the shared pool, listening through {@link #listenerSource}.
   */
  static JdbcLockBackend.Builder notifyingBackend() {
    return backend().releaseNotifications(true).listenerDataSource(listenerSource());
  }

  /** A backend builder over the shared pool and the default table. */
  static JdbcLockBackend.Builder backend() {
    return JdbcLockBackend.builder(pool());
  }

  static PostgresServer server() {
    pool();
    return PostgresServer.shared();
  }
}
