package io.hostloom.examples.redisjob;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.redis.RedisServerProcess;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The example as it ships, twice: two instances (two Spring contexts, each with its own Redis
 * connection and lock) against a real {@code redis-server} the test starts, rounds of 1 s.
 */
class RedisJobApplicationTest {
  static ConfigurableApplicationContext a;
  static ConfigurableApplicationContext b;

  @BeforeAll
  static void startTwoInstances() {
    a = instance("a");
    b = instance("b");
  }

  @AfterAll
  static void stop() {
    Stream.of(a, b).filter(Objects::nonNull).forEach(ConfigurableApplicationContext::close);
  }

  static ConfigurableApplicationContext instance(String name) {
    return new SpringApplicationBuilder(RedisJobApplication.class)
        .web(WebApplicationType.NONE)
        .run(
            "--hostloom.redis.uri=" + RedisServerProcess.shared().uri(),
            "--example.report.period=1s",
            "--example.instance=" + name,
            "--spring.main.banner-mode=off");
  }

  static ReportJob job(ConfigurableApplicationContext instance) {
    return instance.getBean(ReportJob.class);
  }

  /** Rounds both instances fired in, and in each of them exactly one wrote. */
  static Set<Instant> roundsWrittenOnceWhileBothFired() {
    Map<Instant, Long> byA = job(a).written();
    Map<Instant, Long> byB = job(b).written();
    Set<Instant> rounds = new TreeSet<>();
    for (Instant r : byA.keySet()) {
      if (job(b).skipped().contains(r)) {
        rounds.add(r);
      }
    }
    for (Instant r : byB.keySet()) {
      if (job(a).skipped().contains(r)) {
        rounds.add(r);
      }
    }
    return rounds;
  }

  @Test
  void eachRoundTheReportIsWrittenByExactlyOneOfTheTwoInstances() {
    TestTiming.await(
        "three rounds in which one instance wrote and the other skipped",
        () -> roundsWrittenOnceWhileBothFired().size() >= 3,
        Duration.ofSeconds(30));

    Map<Instant, Long> byA = job(a).written();
    Map<Instant, Long> byB = job(b).written();
    Set<Instant> writtenTwice = new HashSet<>(byA.keySet());
    writtenTwice.retainAll(byB.keySet());
    assertThat(writtenTwice).as("rounds whose report both instances wrote").isEmpty();
    // and every round's claim is a newer grant than the round before (one counter in Redis)
    Map<Instant, Long> all = new TreeMap<>(byA);
    all.putAll(byB);
    assertThat(List.copyOf(all.values())).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void whileAThirdHolderHasTheClaimBothSkipAndAfterItANewerTokenWrites() {
    DistributedLock lock = a.getBean(DistributedLock.class);
    TestTiming.await(
        "a first report",
        () -> !job(a).written().isEmpty() || !job(b).written().isEmpty(),
        Duration.ofSeconds(30));
    long tokenBefore;
    int writesWhileHeld;
    try (LockHandle other =
        lock.acquire(
            ReportJob.options(Duration.ofSeconds(1)).lockKey(),
            LockOptions.builder()
                .lease(Duration.ofSeconds(30))
                .maxWait(Duration.ofSeconds(10))
                // the two instances re-claim every round: keep trying for the gap until maxWait
                .retry(LockRetryPolicy.interval(10_000, Duration.ofMillis(10)))
                .build())) {
      tokenBefore = other.fencingToken();
      int writes = job(a).written().size() + job(b).written().size();
      int skipsA = job(a).skipped().size();
      int skipsB = job(b).skipped().size();
      TestTiming.await(
          "a round both skip",
          () -> job(a).skipped().size() > skipsA && job(b).skipped().size() > skipsB,
          Duration.ofSeconds(10));
      writesWhileHeld = job(a).written().size() + job(b).written().size() - writes;
    }
    assertThat(writesWhileHeld).isZero();

    TestTiming.await(
        "a report after the release",
        () ->
            job(a).written().values().stream().anyMatch(t -> t > tokenBefore)
                || job(b).written().values().stream().anyMatch(t -> t > tokenBefore),
        Duration.ofSeconds(10));
  }
}
