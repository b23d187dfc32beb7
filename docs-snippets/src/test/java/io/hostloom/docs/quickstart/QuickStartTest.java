package io.hostloom.docs.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockingOptions;
import io.hostloom.redis.RedisLockBackend;
import io.hostloom.redis.RedisServerProcess;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import io.hostloom.springboot.backend.redis.RedisBackendAutoConfiguration;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The README's quick start as written (its blocks are included from {@link NightlyReport} and
 * {@link NightlyReportJob}), against a real {@code redis-server}: what the user sees when the key
 * is free and when another instance holds it.
 */
class QuickStartTest {

  static String runMain() throws Exception {
    PrintStream out = System.out;
    ByteArrayOutputStream seen = new ByteArrayOutputStream();
    System.setProperty("redis.uri", RedisServerProcess.shared().uri());
    System.setOut(new PrintStream(seen, true, StandardCharsets.UTF_8));
    try {
      NightlyReport.main(new String[0]);
    } finally {
      System.setOut(out);
      System.clearProperty("redis.uri");
    }
    return seen.toString(StandardCharsets.UTF_8);
  }

  @Test
  void plainJavaRunsTheReportOrSaysAnotherInstanceDoes() throws Exception {
    // (the rest of the output is the lock's log, through the test's SLF4J binding)
    assertThat(runMain()).contains("running the report, fencing token ");

    try (RedisLockBackend redis =
            RedisLockBackend.builder().uri(RedisServerProcess.shared().uri()).build();
        DistributedLock other = DistributedLock.create(LockingOptions.of("billing"), redis);
        LockHandle held = other.acquire("nightly-report")) {
      assertThat(runMain())
          .contains("another instance runs the report")
          .doesNotContain("running the report");
    }
  }

  @Test
  void theBootVersionNeedsTheReadmesProperties() {
    new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                HostLoomAutoConfiguration.class, RedisBackendAutoConfiguration.class))
        .withBean(NightlyReportJob.class)
        .withPropertyValues(
            "hostloom.backend=redis",
            "hostloom.redis.uri=" + RedisServerProcess.shared().uri(),
            "hostloom.locking.namespace=billing")
        .run(
            ctx ->
                assertThat(ctx.getBean(NightlyReportJob.class).run())
                    .startsWith("running the report, fencing token "));
  }
}
