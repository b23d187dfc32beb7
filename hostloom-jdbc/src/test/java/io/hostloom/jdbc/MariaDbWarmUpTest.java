package io.hostloom.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.locking.spi.LockBackend;
import java.net.InetSocketAddress;
import java.time.Duration;

/** {@link JdbcLockBackend#warmUp()} on the shared MariaDB: the testkit's suite. */
class MariaDbWarmUpTest extends JdbcWarmUpSuite {
  @Override
  protected InetSocketAddress serverAddress() {
    return new InetSocketAddress("127.0.0.1", MariaDbTestDatabase.server().port());
  }

  @Override
  protected String jdbcUrl(InetSocketAddress at) {
    return "jdbc:mariadb://"
        + at.getHostString()
        + ":"
        + at.getPort()
        + "/"
        + MariaDbTestDatabase.NAME
        + "?user=root&connectTimeout=1000&socketTimeout=4000";
  }

  @Override
  protected LockBackend backendOn(HikariDataSource pool) {
    return MariaDbTestDatabase.backendOn(pool).commandTimeout(Duration.ofSeconds(2)).build();
  }
}
