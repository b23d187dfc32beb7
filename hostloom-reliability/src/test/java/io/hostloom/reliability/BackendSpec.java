package io.hostloom.reliability;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.azure.AzureBlobLockBackend;
import io.hostloom.etcd.EtcdLockBackend;
import io.hostloom.jdbc.JdbcLockBackend;
import io.hostloom.jdbc.SqlDialect;
import io.hostloom.redis.RedisLockBackend;
import io.hostloom.zookeeper.ZooKeeperLockBackend;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * How to reach a backend, as plain strings, so a worker process can build the same client the test
 * JVM builds: a type, an address (a URI or a connection string) and the command timeout.
 *
 * @param type {@code redis}, {@code postgresql}, {@code mariadb}, {@code azure}, {@code etcd} or
 *     {@code zookeeper}
 * @param address the backend's address: a Redis URI, a JDBC URL, {@code <container>@<connection
 *     string>}, an etcd endpoint or a ZooKeeper connect string
 * @param commandTimeout the client's bound on every backend call
 */
record BackendSpec(String type, String address, Duration commandTimeout) {
  static final String TYPE = "backend.type";
  static final String ADDRESS = "backend.address";
  static final String TIMEOUT = "backend.timeout";

  BackendSpec {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(address, "address");
    if (commandTimeout.isNegative() || commandTimeout.isZero()) {
      throw new IllegalArgumentException(
          "commandTimeout must be positive but was " + commandTimeout);
    }
  }

  /** The same backend with another command timeout. */
  BackendSpec withTimeout(Duration timeout) {
    return new BackendSpec(type, address, timeout);
  }

  /** The same backend reached at another address (e.g. through a fault proxy). */
  BackendSpec withAddress(String newAddress) {
    return new BackendSpec(type, newAddress, commandTimeout);
  }

  /** Writes this spec into worker arguments. */
  void putInto(Map<String, String> args) {
    args.put(TYPE, type);
    args.put(ADDRESS, address);
    args.put(TIMEOUT, commandTimeout.toString());
  }

  /** Reads a spec written by {@link #putInto}. */
  static BackendSpec from(Map<String, String> args) {
    return new BackendSpec(
        required(args, TYPE), required(args, ADDRESS), Duration.parse(required(args, TIMEOUT)));
  }

  /**
   * Builds a new client of the backend, with whatever it needs (a connection pool); close it after
   * use.
   *
   * @throws IllegalArgumentException for an unknown type
   */
  BackendClient open() {
    return switch (type) {
      case "zookeeper" -> {
        ZooKeeperLockBackend b =
            ZooKeeperLockBackend.builder()
                .connectString(address)
                .sessionTimeout(Duration.ofSeconds(4))
                .commandTimeout(commandTimeout)
                .build();
        yield new BackendClient(b, b::close);
      }
      case "redis" -> {
        RedisLockBackend b =
            RedisLockBackend.builder().uri(address).commandTimeout(commandTimeout).build();
        yield new BackendClient(b, b::close);
      }
      case "postgresql" -> {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(address);
        config.setMaximumPoolSize(12);
        config.setMinimumIdle(0);
        // an unreachable database is a quick UNAVAILABLE, well within the command timeout
        config.setConnectionTimeout(Math.max(250, commandTimeout.toMillis() / 2));
        config.setValidationTimeout(250);
        config.setInitializationFailTimeout(-1);
        HikariDataSource pool = new HikariDataSource(config);
        JdbcLockBackend b =
            JdbcLockBackend.builder(pool)
                .commandTimeout(commandTimeout)
                .createTableIfMissing(false) // the test created it: a cold connect may be slow
                .releaseNotifications(true)
                .listenerDataSource(listenerSource(address))
                .build();
        yield new BackendClient(
            b,
            () -> {
              b.close();
              pool.close();
            });
      }
      case "mariadb" -> {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(address);
        config.setMaximumPoolSize(12);
        config.setMinimumIdle(0);
        config.setConnectionTimeout(Math.max(250, commandTimeout.toMillis() / 2));
        config.setValidationTimeout(250);
        config.setInitializationFailTimeout(-1);
        HikariDataSource pool = new HikariDataSource(config);
        JdbcLockBackend b =
            JdbcLockBackend.builder(pool)
                .dialect(SqlDialect.MARIADB)
                .commandTimeout(commandTimeout)
                .releaseNotifications(true) // polling: MariaDB has no LISTEN/NOTIFY
                .build();
        yield new BackendClient(
            b,
            () -> {
              b.close();
              pool.close();
            });
      }
      case "azure" -> {
        int at = address.indexOf('@'); // container@connection string
        AzureBlobLockBackend b =
            AzureBlobLockBackend.builder()
                .containerName(address.substring(0, at))
                .connectionString(address.substring(at + 1))
                .commandTimeout(commandTimeout)
                .build();
        yield new BackendClient(b, () -> {}); // nothing to close: the SDK shares its HTTP client
      }
      case "etcd" -> {
        EtcdLockBackend b =
            EtcdLockBackend.builder().endpoints(address).commandTimeout(commandTimeout).build();
        yield new BackendClient(b, b::close);
      }
      default -> throw new IllegalArgumentException("unknown backend type " + type);
    };
  }

  private static String required(Map<String, String> args, String name) {
    String v = args.get(name);
    if (v == null) {
      throw new IllegalArgumentException("missing argument " + name);
    }
    return v;
  }

  /** The release listener's own connection source on {@code jdbcUrl}, not the operations pool. */
  private static DataSource listenerSource(String jdbcUrl) {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setURL(jdbcUrl);
    return ds;
  }
}
