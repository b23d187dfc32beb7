package io.hostloom.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.azure.AzureBlobLockBackend;
import io.hostloom.etcd.EtcdKeyLayout;
import io.hostloom.etcd.EtcdLockBackend;
import io.hostloom.jdbc.JdbcLockBackend;
import io.hostloom.jdbc.LockTable;
import io.hostloom.locking.LockingOptions;
import io.hostloom.redis.RedisKeyLayout;
import io.hostloom.redis.RedisLockBackend;
import io.hostloom.scheduling.ScheduleOptions;
import io.hostloom.springboot.backend.azure.AzureBackendProperties;
import io.hostloom.springboot.backend.etcd.EtcdBackendProperties;
import io.hostloom.springboot.backend.mariadb.MariaDbBackendProperties;
import io.hostloom.springboot.backend.postgres.PostgresBackendProperties;
import io.hostloom.springboot.backend.redis.RedisBackendProperties;
import io.hostloom.springboot.backend.zookeeper.ZooKeeperBackendProperties;
import io.hostloom.springboot.scheduling.ExclusiveScheduleProperties;
import io.hostloom.wopi.WopiLockProvider;
import io.hostloom.zookeeper.ZooKeeperLockBackend;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataProperty;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepository;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepositoryJsonBuilder;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.util.ClassUtils;

/**
 * The published property metadata ({@code META-INF/spring-configuration-metadata.json}, what IDEs
 * complete from) is complete, and every default is the kernel's or a backend's {@code DEFAULT_*}
 * constant: in the properties classes and in the metadata alike.
 */
class PropertyMetadataTest {
  static final HostLoomProperties CORE = new HostLoomProperties();
  static final RedisBackendProperties REDIS = new RedisBackendProperties();
  static final AzureBackendProperties AZURE = new AzureBackendProperties();
  static final EtcdBackendProperties ETCD = new EtcdBackendProperties();
  static final PostgresBackendProperties POSTGRES = new PostgresBackendProperties();
  static final ZooKeeperBackendProperties ZOOKEEPER = new ZooKeeperBackendProperties();
  static final MariaDbBackendProperties MARIADB = new MariaDbBackendProperties();
  static final ExclusiveScheduleProperties SCHEDULING = new ExclusiveScheduleProperties();

  /** Every property with a default: its constant and the properties class's value. */
  static final Map<String, Object[]> DEFAULTS = new LinkedHashMap<>();

  static {
    put(
        "hostloom.locking.enabled",
        LockingOptions.DEFAULT_ENABLED,
        () -> CORE.getLocking().isEnabled());
    put(
        "hostloom.locking.default-lease",
        LockingOptions.DEFAULT_LEASE,
        () -> CORE.getLocking().getDefaultLease());
    put(
        "hostloom.locking.max-lease",
        LockingOptions.DEFAULT_MAX_LEASE,
        () -> CORE.getLocking().getMaxLease());
    put(
        "hostloom.locking.max-hold",
        LockingOptions.DEFAULT_MAX_HOLD,
        () -> CORE.getLocking().getMaxHold());
    put(
        "hostloom.locking.strict-max-hold",
        LockingOptions.DEFAULT_STRICT_MAX_HOLD,
        () -> CORE.getLocking().isStrictMaxHold());
    put(
        "hostloom.locking.auto-extend",
        LockingOptions.DEFAULT_AUTO_EXTEND,
        () -> CORE.getLocking().isAutoExtend());
    put(
        "hostloom.locking.detect-reentrancy",
        LockingOptions.DEFAULT_DETECT_REENTRANCY,
        () -> CORE.getLocking().isDetectReentrancy());
    put(
        "hostloom.locking.max-key-length",
        LockingOptions.DEFAULT_MAX_KEY_LENGTH,
        () -> CORE.getLocking().getMaxKeyLength());
    put(
        "hostloom.locking.wake-on-release",
        LockingOptions.DEFAULT_WAKE_ON_RELEASE,
        () -> CORE.getLocking().isWakeOnRelease());
    put(
        "hostloom.wopi.lock-expiry",
        WopiLockProvider.DEFAULT_EXPIRY,
        () -> CORE.getWopi().getLockExpiry());
    put(
        "hostloom.wopi.key-prefix",
        WopiLockProvider.DEFAULT_KEY_PREFIX,
        () -> CORE.getWopi().getKeyPrefix());
    put(
        "hostloom.redis.command-timeout",
        RedisLockBackend.DEFAULT_COMMAND_TIMEOUT,
        REDIS::getCommandTimeout);
    put(
        "hostloom.redis.health-timeout",
        RedisLockBackend.DEFAULT_HEALTH_TIMEOUT,
        REDIS::getHealthTimeout);
    put(
        "hostloom.redis.fence-retention",
        RedisLockBackend.DEFAULT_FENCE_RETENTION,
        REDIS::getFenceRetention);
    put("hostloom.redis.key-prefix", RedisKeyLayout.DEFAULT_PREFIX, REDIS::getKeyPrefix);
    put("hostloom.zookeeper.root-path", ZooKeeperLockBackend.DEFAULT_ROOT, ZOOKEEPER::getRootPath);
    put(
        "hostloom.zookeeper.session-timeout",
        ZooKeeperLockBackend.DEFAULT_SESSION_TIMEOUT,
        ZOOKEEPER::getSessionTimeout);
    put(
        "hostloom.zookeeper.command-timeout",
        ZooKeeperLockBackend.DEFAULT_COMMAND_TIMEOUT,
        ZOOKEEPER::getCommandTimeout);
    put(
        "hostloom.zookeeper.health-timeout",
        ZooKeeperLockBackend.DEFAULT_HEALTH_TIMEOUT,
        ZOOKEEPER::getHealthTimeout);
    put(
        "hostloom.azure.container-name",
        AzureBlobLockBackend.DEFAULT_CONTAINER_NAME,
        AZURE::getContainerName);
    put(
        "hostloom.azure.command-timeout",
        AzureBlobLockBackend.DEFAULT_COMMAND_TIMEOUT,
        AZURE::getCommandTimeout);
    put(
        "hostloom.azure.health-timeout",
        AzureBlobLockBackend.DEFAULT_HEALTH_TIMEOUT,
        AZURE::getHealthTimeout);
    put(
        "hostloom.azure.unleased-claim-grace",
        AzureBlobLockBackend.DEFAULT_UNLEASED_CLAIM_GRACE,
        AZURE::getUnleasedClaimGrace);
    put("hostloom.postgres.schema", LockTable.DEFAULT_SCHEMA, POSTGRES::getSchema);
    put(
        "hostloom.etcd.command-timeout",
        EtcdLockBackend.DEFAULT_COMMAND_TIMEOUT,
        ETCD::getCommandTimeout);
    put(
        "hostloom.etcd.health-timeout",
        EtcdLockBackend.DEFAULT_HEALTH_TIMEOUT,
        ETCD::getHealthTimeout);
    put("hostloom.etcd.key-prefix", EtcdKeyLayout.DEFAULT_PREFIX, ETCD::getKeyPrefix);
    put("hostloom.postgres.table", LockTable.DEFAULT_TABLE, POSTGRES::getTable);
    put(
        "hostloom.postgres.command-timeout",
        JdbcLockBackend.DEFAULT_COMMAND_TIMEOUT,
        POSTGRES::getCommandTimeout);
    put(
        "hostloom.postgres.executor-threads",
        JdbcLockBackend.DEFAULT_EXECUTOR_THREADS,
        POSTGRES::getExecutorThreads);
    put(
        "hostloom.postgres.max-queued-calls",
        JdbcLockBackend.DEFAULT_MAX_QUEUED_CALLS,
        POSTGRES::getMaxQueuedCalls);
    put("hostloom.mariadb.schema", LockTable.DEFAULT_SCHEMA, MARIADB::getSchema);
    put("hostloom.mariadb.table", LockTable.DEFAULT_TABLE, MARIADB::getTable);
    put(
        "hostloom.mariadb.command-timeout",
        JdbcLockBackend.DEFAULT_COMMAND_TIMEOUT,
        MARIADB::getCommandTimeout);
    put(
        "hostloom.mariadb.executor-threads",
        JdbcLockBackend.DEFAULT_EXECUTOR_THREADS,
        MARIADB::getExecutorThreads);
    put(
        "hostloom.mariadb.max-queued-calls",
        JdbcLockBackend.DEFAULT_MAX_QUEUED_CALLS,
        MARIADB::getMaxQueuedCalls);
    put(
        "hostloom.scheduling.default-lease",
        ScheduleOptions.DEFAULT_LEASE,
        SCHEDULING::getDefaultLease);
  }

  /**
   * Defaults that are the starter's own choice (no kernel or backend constant exists): each with
   * its value here, checked against the properties class and the metadata like the others.
   */
  static final Map<String, Object[]> STARTER_DEFAULTS = new LinkedHashMap<>();

  static {
    STARTER_DEFAULTS.put(
        "hostloom.locking.retry",
        new Object[] {"default", (Supplier<Object>) () -> CORE.getLocking().getRetry()});
    STARTER_DEFAULTS.put(
        "hostloom.wopi.lock-comparer",
        new Object[] {"ordinal", (Supplier<Object>) () -> CORE.getWopi().getLockComparer()});
    // the builder's default too: tables come with your migrations unless asked
    STARTER_DEFAULTS.put(
        "hostloom.postgres.create-table",
        new Object[] {false, (Supplier<Object>) POSTGRES::isCreateTable});
    STARTER_DEFAULTS.put(
        "hostloom.mariadb.create-table",
        new Object[] {false, (Supplier<Object>) MARIADB::isCreateTable});
    // MariaDB has no LISTEN/NOTIFY: polling costs reads, so waiters use the retry policy unless
    // asked
    STARTER_DEFAULTS.put(
        "hostloom.mariadb.release-polling",
        new Object[] {false, (Supplier<Object>) MARIADB::isReleasePolling});
    // the .NET WopiHost blob name unless opted out, so Java and .NET hosts share a container
    STARTER_DEFAULTS.put(
        "hostloom.azure.dotnet-wopi-layout",
        new Object[] {true, (Supplier<Object>) AZURE::isDotnetWopiLayout});
    // the builder's default: waiters are woken by the session's watch
    STARTER_DEFAULTS.put(
        "hostloom.zookeeper.release-signal",
        new Object[] {true, (Supplier<Object>) ZOOKEEPER::isReleaseSignal});
    STARTER_DEFAULTS.put(
        "hostloom.scheduling.enabled",
        new Object[] {true, (Supplier<Object>) SCHEDULING::isEnabled});
    // as ScheduleOptions: no minimum hold unless the schedule asks for one
    STARTER_DEFAULTS.put(
        "hostloom.scheduling.default-minimum-hold",
        new Object[] {Duration.ZERO, (Supplier<Object>) SCHEDULING::getDefaultMinimumHold});
    // start-up connects the backend unless asked not to, waiting at most 10 s for it
    STARTER_DEFAULTS.put(
        "hostloom.warm-up.enabled",
        new Object[] {true, (Supplier<Object>) () -> CORE.getWarmUp().isEnabled()});
    STARTER_DEFAULTS.put(
        "hostloom.warm-up.timeout",
        new Object[] {
          Duration.ofSeconds(10), (Supplier<Object>) () -> CORE.getWarmUp().getTimeout()
        });
  }

  private static void put(String name, Object constant, Supplier<Object> value) {
    DEFAULTS.put(name, new Object[] {constant, value});
  }

  static ConfigurationMetadataRepository metadata() throws IOException {
    List<java.net.URL> files =
        Collections.list(
            PropertyMetadataTest.class
                .getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"));
    ConfigurationMetadataRepositoryJsonBuilder builder =
        ConfigurationMetadataRepositoryJsonBuilder.create();
    for (java.net.URL url : files) {
      try (InputStream in = url.openStream()) {
        builder.withJsonResource(in);
      }
    }
    return builder.build();
  }

  static Map<String, ConfigurationMetadataProperty> hostloomProperties() throws IOException {
    Map<String, ConfigurationMetadataProperty> all = new LinkedHashMap<>();
    metadata()
        .getAllProperties()
        .forEach(
            (k, v) -> {
              if (k.startsWith("hostloom.")) {
                all.put(k, v);
              }
            });
    return all;
  }

  @Test
  void everyHostloomPropertyHasADescriptionAndTheBackendHasHints() throws IOException {
    Map<String, ConfigurationMetadataProperty> all = hostloomProperties();
    assertThat(all).hasSizeGreaterThan(30);
    assertThat(all.values())
        .allSatisfy(p -> assertThat(p.getDescription()).as(p.getId()).isNotBlank());
    assertThat(all.get("hostloom.backend").getHints().getValueHints())
        .extracting(h -> String.valueOf(h.getValue()))
        .containsExactly("memory", "redis", "azure", "postgres", "etcd", "zookeeper", "mariadb");
  }

  @Test
  void everyDefaultIsItsConstantInThePropertiesClassAndInTheMetadata() throws Exception {
    Map<String, ConfigurationMetadataProperty> all = hostloomProperties();
    Map<String, Object[]> every = new LinkedHashMap<>(DEFAULTS);
    every.putAll(STARTER_DEFAULTS);
    for (Map.Entry<String, Object[]> e : every.entrySet()) {
      String name = e.getKey();
      Object constant = e.getValue()[0];
      @SuppressWarnings("unchecked")
      Object value = ((Supplier<Object>) e.getValue()[1]).get();
      assertThat(value).as(name + " in its properties class").isEqualTo(constant);
      ConfigurationMetadataProperty p = all.get(name);
      assertThat(p).as(name + " in the metadata").isNotNull();
      assertThat(p.getDefaultValue()).as(name + " default in the metadata").isNotNull();
      Class<?> type = ClassUtils.resolveClassName(p.getType(), getClass().getClassLoader());
      Object bound =
          new Binder(
                  new MapConfigurationPropertySource(
                      Map.of(name, String.valueOf(p.getDefaultValue()))))
              .bind(name, Bindable.of(type))
              .get();
      assertThat(bound).as(name + " default in the metadata, bound").isEqualTo(constant);
    }
  }

  @Test
  void everyMetadataDefaultIsTiedToAConstant() throws IOException {
    hostloomProperties().values().stream()
        .filter(p -> p.getDefaultValue() != null)
        .forEach(
            p ->
                assertThat(
                        DEFAULTS.containsKey(p.getId()) || STARTER_DEFAULTS.containsKey(p.getId()))
                    .as("a constant (or a listed starter default) for " + p.getId())
                    .isTrue());
  }
}
