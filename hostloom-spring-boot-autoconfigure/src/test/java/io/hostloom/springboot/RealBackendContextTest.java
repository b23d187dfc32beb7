package io.hostloom.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.azure.AzureBlobLockBackend;
import io.hostloom.azure.Azurite;
import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.redis.RedisLockBackend;
import io.hostloom.redis.RedisServerProcess;
import io.hostloom.wopi.WopiLockProvider;
import io.hostloom.zookeeper.ZooKeeperLockBackend;
import io.hostloom.zookeeper.ZooKeeperTestServer;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two real application contexts (full auto-configuration, as {@code SpringApplication} runs it) on
 * one real backend, like two instances of an application: what one holds the other cannot take,
 * until it is released. Runs on Boot 4 here and on Boot 3.5 in hostloom-spring-boot3-starter, with
 * the Lettuce, Netty, Reactor and Jackson versions each Boot line manages.
 */
class RealBackendContextTest {

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}

  @Test
  void twoContextsOnOneRedisExcludeEachOther() {
    String uri = RedisServerProcess.shared().uri();
    String ns = "ctx-" + UUID.randomUUID().toString().substring(0, 8);
    try (ConfigurableApplicationContext a =
            start(
                "hostloom.backend=redis",
                "hostloom.redis.uri=" + uri,
                "hostloom.locking.namespace=" + ns);
        ConfigurableApplicationContext b =
            start(
                "hostloom.backend=redis",
                "hostloom.redis.uri=" + uri,
                "hostloom.locking.namespace=" + ns)) {
      assertThat(a.getBean(HostLoomSettings.BACKEND_BEAN)).isInstanceOf(RedisLockBackend.class);
      assertExclusive(a, b);
    }
  }

  @Test
  void twoContextsOnOneZooKeeperExcludeEachOtherAndShareWopiLocks() {
    String[] props = {
      "hostloom.backend=zookeeper",
      "hostloom.zookeeper.connect-string=" + ZooKeeperTestServer.shared().connectString(),
      "hostloom.zookeeper.root-path=/ctx-" + UUID.randomUUID().toString().substring(0, 8),
      "hostloom.locking.namespace=ctx"
    };
    try (ConfigurableApplicationContext a = start(props);
        ConfigurableApplicationContext b = start(props)) {
      assertThat(a.getBean(HostLoomSettings.BACKEND_BEAN)).isInstanceOf(ZooKeeperLockBackend.class);
      assertExclusive(a, b);
      assertThat(a.getBean(WopiLockProvider.class).add("doc.docx", "L1").success()).isTrue();
      assertThat(b.getBean(WopiLockProvider.class).add("doc.docx", "L2").success()).isFalse();
    }
  }

  @Test
  void twoContextsOnOneAzuriteExcludeEachOther() {
    String cs = Azurite.shared().connectionString();
    String container = "ctx-" + UUID.randomUUID().toString().substring(0, 8);
    String[] props = {
      "hostloom.backend=azure",
      "hostloom.azure.connection-string=" + cs,
      "hostloom.azure.container-name=" + container,
      "hostloom.locking.namespace=ctx"
    };
    try (ConfigurableApplicationContext a = start(props);
        ConfigurableApplicationContext b = start(props)) {
      assertThat(a.getBean(HostLoomSettings.BACKEND_BEAN)).isInstanceOf(AzureBlobLockBackend.class);
      assertExclusive(a, b);
      // the WOPI face over the same blobs: a lock one instance set is seen by the other
      assertThat(a.getBean(WopiLockProvider.class).add("doc.docx", "L1").success()).isTrue();
      assertThat(b.getBean(WopiLockProvider.class).add("doc.docx", "L2").success()).isFalse();
    }
  }

  private static void assertExclusive(
      ConfigurableApplicationContext a, ConfigurableApplicationContext b) {
    DistributedLock lockA = a.getBean(DistributedLock.class);
    DistributedLock lockB = b.getBean(DistributedLock.class);
    Optional<LockHandle> held = lockA.tryAcquire("nightly-report");
    assertThat(held).isPresent();
    long first = held.get().fencingToken();
    assertThat(lockB.tryAcquire("nightly-report")).isEmpty();
    held.get().close();
    try (LockHandle second = lockB.tryAcquire("nightly-report").orElseThrow()) {
      assertThat(second.fencingToken()).isGreaterThan(first);
    }
  }

  private static ConfigurableApplicationContext start(String... properties) {
    return new SpringApplicationBuilder(App.class)
        .web(WebApplicationType.NONE)
        .properties(properties)
        // the test classpath has a JDBC driver but no database (either Boot generation's name)
        .properties(
            "spring.autoconfigure.exclude="
                + "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration,"
                + "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration")
        .run();
  }
}
