package io.hostloom.springboot;

import static io.hostloom.springboot.HostLoomAutoConfigurationTest.ALL;
import static io.hostloom.springboot.HostLoomAutoConfigurationTest.rootCause;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.etcd.EtcdLockBackend;
import io.hostloom.etcd.EtcdServerProcess;
import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.springboot.backend.etcd.EtcdBackendAutoConfiguration;
import io.hostloom.springboot.backend.etcd.EtcdLockBackendBuilderCustomizer;
import io.hostloom.springboot.health.HostLoomHealthCheck;
import io.hostloom.wopi.WopiLockProvider;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code hostloom.backend=etcd}: the backend is built from {@code hostloom.etcd.*} (customizers
 * applied), its settings are validated, and two contexts on one real etcd exclude each other on
 * both faces, with the health check UP.
 */
class EtcdBackendContextTest {
  final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(ALL)
          .withConfiguration(AutoConfigurations.of(EtcdBackendAutoConfiguration.class))
          .withPropertyValues("hostloom.locking.namespace=backends");

  @Test
  void etcdBuildsAnEtcdBackendFromItsEndpointsWithoutContactingIt() {
    runner
        .withPropertyValues(
            "hostloom.backend=etcd",
            "hostloom.etcd.endpoints=http://127.0.0.1:1,http://127.0.0.1:2",
            "hostloom.etcd.command-timeout=2s")
        .withBean(
            "noSignal", EtcdLockBackendBuilderCustomizer.class, () -> b -> b.releaseSignal(false))
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              EtcdLockBackend b = ctx.getBean(EtcdLockBackend.class);
              assertThat(ctx.getBean(LockBackend.class)).isSameAs(b);
              assertThat(b.toString()).contains("PT2S");
              assertThat(b.releaseSignalUp()).as("the customizer turned the watch off").isFalse();
              assertThat(ctx).hasSingleBean(WopiLockProvider.class);
            });
  }

  @Test
  void etcdBackendNamesEveryBadSetting() {
    runner
        .withPropertyValues(
            "hostloom.backend=etcd",
            "hostloom.etcd.endpoints=etcd-1:2379",
            "hostloom.etcd.health-timeout=0s",
            "hostloom.etcd.key-prefix=")
        .run(
            ctx ->
                assertThat(rootCause(ctx.getStartupFailure()).problems())
                    .containsExactly(
                        "hostloom.etcd.endpoints must start with http:// or https:// but one was"
                            + " 'no scheme'",
                        "hostloom.etcd.health-timeout must be positive but was PT0S",
                        "hostloom.etcd.key-prefix is invalid: keyPrefix must not be empty"));
    runner
        .withPropertyValues("hostloom.backend=etcd")
        .run(
            ctx ->
                assertThat(rootCause(ctx.getStartupFailure()).problems())
                    .containsExactly(
                        "hostloom.etcd.endpoints is required with hostloom.backend=etcd, e.g."
                            + " http://localhost:2379"));
  }

  @Test
  void twoContextsOnOneEtcdExcludeEachOtherAndReportHealthy() {
    String endpoint = EtcdServerProcess.shared().endpoint();
    String prefix = "ctx-" + UUID.randomUUID().toString().substring(0, 8) + "/";
    ApplicationContextRunner onEtcd =
        runner.withPropertyValues(
            "hostloom.backend=etcd",
            "hostloom.etcd.endpoints=" + endpoint,
            "hostloom.etcd.key-prefix=" + prefix);
    onEtcd.run(
        a ->
            onEtcd.run(
                b -> {
                  DistributedLock lockA = a.getBean(DistributedLock.class);
                  DistributedLock lockB = b.getBean(DistributedLock.class);
                  Optional<LockHandle> held = lockA.tryAcquire("nightly-report");
                  assertThat(held).isPresent();
                  assertThat(lockB.tryAcquire("nightly-report")).isEmpty();
                  long first = held.get().fencingToken();
                  held.get().close();
                  try (LockHandle second = lockB.tryAcquire("nightly-report").orElseThrow()) {
                    assertThat(second.fencingToken()).isGreaterThan(first);
                  }
                  assertThat(a.getBean(WopiLockProvider.class).add("doc.docx", "L1").success())
                      .isTrue();
                  assertThat(b.getBean(WopiLockProvider.class).add("doc.docx", "L2").success())
                      .isFalse();
                  HostLoomHealthCheck.Result health =
                      new HostLoomHealthCheck(true, Optional.of(a.getBean(LockBackend.class)))
                          .check();
                  assertThat(health.up()).as(health.details().toString()).isTrue();
                }));
  }
}
