package io.hostloom.examples.redisjob;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.redis.RedisServerProcess;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The example as it ships, against a real {@code redis-server} the test starts: the scheduled job
 * runs under the lock, and skips its rounds while someone else (here: the test, as another instance
 * would) holds the key.
 */
@SpringBootTest(properties = "example.report.interval=100ms")
class RedisJobApplicationTest {

  @DynamicPropertySource
  static void redis(DynamicPropertyRegistry registry) {
    registry.add("hostloom.redis.uri", () -> RedisServerProcess.shared().uri());
  }

  @Autowired ReportJob job;
  @Autowired DistributedLock lock;

  @Test
  void theJobRunsUnderTheLockAndSkipsWhileAnotherHolderHasIt() {
    TestTiming.await("the first report", () -> job.runs() > 0, Duration.ofSeconds(10));
    assertThat(job.lastToken()).isPositive();

    try (LockHandle other = lock.acquire(ReportJob.SCHEDULE.lockKey())) {
      int runsBefore = job.runs();
      int skipsBefore = job.skips();
      TestTiming.await("a skipped round", () -> job.skips() > skipsBefore, Duration.ofSeconds(10));
      assertThat(job.runs()).isEqualTo(runsBefore);
    }

    long tokenWhileHeldElsewhere = job.lastToken();
    int runsAfterRelease = job.runs();
    TestTiming.await(
        "a report after the release", () -> job.runs() > runsAfterRelease, Duration.ofSeconds(10));
    assertThat(job.lastToken()).isGreaterThan(tokenWhileHeldElsewhere);
  }
}
