package io.hostloom.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.testing.ManualLockClock;
import io.hostloom.scheduling.ScheduleGuard;
import io.hostloom.scheduling.ScheduleOptions;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ScheduleMetricsTest {
  @Test
  void countsEveryOutcomeAndTimesStartedJobsTaggedWithTheScheduleName() {
    ManualLockClock clock = new ManualLockClock();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (DistributedLock lock =
        DistributedLock.builder(LockingOptions.of("app"), new InMemoryLockBackend(clock))
            .clock(clock)
            .build()) {
      ScheduleGuard guard =
          ScheduleGuard.builder(lock, ScheduleOptions.of("report"))
              .clock(clock)
              .listener(new ScheduleMetrics(registry))
              .build();
      guard.run(c -> clock.advance(Duration.ofMillis(250)));
      guard.run(c -> clock.advance(Duration.ofMillis(50)));
      guard.run(
          c -> {
            throw new IllegalStateException("boom");
          });

      assertThat(
              registry
                  .get(ScheduleMetrics.RUNS)
                  .tags(
                      ScheduleMetrics.TAG_SCHEDULE,
                      "report",
                      ScheduleMetrics.TAG_OUTCOME,
                      "succeeded")
                  .counter()
                  .count())
          .isEqualTo(2);
      assertThat(
              registry
                  .get(ScheduleMetrics.RUNS)
                  .tags(ScheduleMetrics.TAG_OUTCOME, "failed")
                  .counter()
                  .count())
          .isEqualTo(1);
      assertThat(
              registry
                  .get(ScheduleMetrics.DURATION)
                  .tags(
                      ScheduleMetrics.TAG_SCHEDULE,
                      "report",
                      ScheduleMetrics.TAG_OUTCOME,
                      "succeeded")
                  .timer()
                  .totalTime(java.util.concurrent.TimeUnit.MILLISECONDS))
          .isEqualTo(300);
    }
  }
}
