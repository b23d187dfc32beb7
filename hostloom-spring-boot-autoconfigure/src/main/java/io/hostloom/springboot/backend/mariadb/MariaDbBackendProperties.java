package io.hostloom.springboot.backend.mariadb;

import io.hostloom.springboot.backend.postgres.PostgresBackendProperties;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The MariaDB backend's settings ({@code hostloom.backend=mariadb}, module
 * io.hostloom:hostloom-jdbc, {@code SqlDialect.MARIADB}): the same settings as {@code
 * hostloom.postgres.*}, since it is the same backend, where the schema is the database and the
 * default {@code public} means the connection's own database; plus release polling.
 */
@ConfigurationProperties("hostloom.mariadb")
public class MariaDbBackendProperties extends PostgresBackendProperties {
  /**
   * Whether waiters poll the key for its release (MariaDB has no LISTEN/NOTIFY): one read per
   * waiter from 5 ms doubling to 200 ms. Off by default: waiters retry on the retry policy.
   */
  private boolean releasePolling = false;

  public boolean isReleasePolling() {
    return releasePolling;
  }

  public void setReleasePolling(boolean releasePolling) {
    this.releasePolling = releasePolling;
  }
}
