package io.hostloom.quarkus.internal;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.time.LockClock;
import io.hostloom.quarkus.HostLoomConfig;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The backends {@code hostloom.backend} can name: each one's module (checked by class name before
 * any of its classes is loaded) and its factory. Each factory is a separate class that only fills
 * the backend module's own public builder from {@link HostLoomConfig}; validation of the values is
 * the builder's.
 */
enum Backends {
  MEMORY("memory", null, "io.hostloom:hostloom-locking"),
  REDIS("redis", "io.hostloom.redis.RedisLockBackend", "io.hostloom:hostloom-redis"),
  POSTGRES("postgres", "io.hostloom.jdbc.JdbcLockBackend", "io.hostloom:hostloom-jdbc"),
  MARIADB("mariadb", "io.hostloom.jdbc.JdbcLockBackend", "io.hostloom:hostloom-jdbc"),
  ETCD("etcd", "io.hostloom.etcd.EtcdLockBackend", "io.hostloom:hostloom-etcd"),
  ZOOKEEPER(
      "zookeeper", "io.hostloom.zookeeper.ZooKeeperLockBackend", "io.hostloom:hostloom-zookeeper"),
  AZURE("azure", "io.hostloom.azure.AzureBlobLockBackend", "io.hostloom:hostloom-azure");

  private final String value;
  private final String backendClass;
  private final String artifact;

  Backends(String value, String backendClass, String artifact) {
    this.value = value;
    this.backendClass = backendClass;
    this.artifact = artifact;
  }

  /**
   * The backend {@code hostloom.backend} names, built from {@code config}.
   *
   * @param dataSource the application's default DataSource, for postgres and mariadb
   * @throws HostLoomConfigurationException for an unknown name, a missing module or a missing
   *     required setting
   */
  static LockBackend create(
      String name, HostLoomConfig config, LockClock clock, Supplier<Object> dataSource) {
    Backends b = byName(name);
    b.requireModule();
    try {
      switch (b) {
        case MEMORY:
          return new InMemoryLockBackend(clock);
        case REDIS:
          return RedisFactory.create(config.redis());
        case POSTGRES:
          return JdbcFactory.create(config.postgres(), dataSource.get(), false, false);
        case MARIADB:
          return JdbcFactory.create(
              config.mariadb(), dataSource.get(), true, config.mariadb().releasePolling());
        case ETCD:
          return EtcdFactory.create(config.etcd());
        case ZOOKEEPER:
          return ZooKeeperFactory.create(config.zookeeper());
        case AZURE:
          return AzureFactory.create(config.azure());
      }
    } catch (IllegalArgumentException | IllegalStateException | NullPointerException e) {
      // the builder's own validation, e.g. a bad key prefix or a negative timeout
      throw HostLoomConfigurationException.of(
          List.of("hostloom.backend=" + b.value + ": " + e.getMessage()));
    }
    throw new AssertionError(b);
  }

  static Backends byName(String name) {
    String n = name.strip().toLowerCase(Locale.ROOT);
    for (Backends b : values()) {
      if (b.value.equals(n)) {
        return b;
      }
    }
    throw HostLoomConfigurationException.of(
        List.of("hostloom.backend must be one of " + choices() + " but was '" + name + "'"));
  }

  static String choices() {
    StringBuilder s = new StringBuilder();
    for (Backends b : values()) {
      s.append(s.length() == 0 ? "" : ", ").append(b.value);
    }
    return s.toString();
  }

  private void requireModule() {
    if (backendClass == null) {
      return;
    }
    try {
      Class.forName(backendClass, false, Thread.currentThread().getContextClassLoader());
    } catch (ClassNotFoundException e) {
      throw HostLoomConfigurationException.of(
          List.of(
              "hostloom.backend="
                  + value
                  + " needs "
                  + artifact
                  + " on the classpath (add it as a dependency)"));
    }
  }

  static String required(Optional<String> value, String key, String example) {
    return value
        .map(String::strip)
        .filter(s -> !s.isEmpty())
        .orElseThrow(
            () ->
                HostLoomConfigurationException.of(
                    List.of(key + " is required with this backend, e.g. " + example)));
  }
}
