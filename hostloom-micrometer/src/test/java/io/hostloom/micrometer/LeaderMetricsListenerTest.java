package io.hostloom.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.leadership.LeaderElector;
import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.testing.CountingLockBackend.Operation;
import io.hostloom.locking.testing.FaultInjectingLockBackend;
import io.hostloom.locking.testing.ManualLockClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LeaderMetricsListenerTest {

  @Test
  void gaugeChangesByReasonAndRenewalsByOutcomeAreTaggedWithTheRole() {
    ManualLockClock clock = new ManualLockClock();
    FaultInjectingLockBackend backend =
        new FaultInjectingLockBackend(new InMemoryLockBackend(clock));
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (DistributedLock lock =
            DistributedLock.builder(LockingOptions.of("app"), backend).clock(clock).build();
        LeaderElector elector =
            LeaderElector.builder(lock, "billing")
                .clock(clock)
                .jitterSource(() -> 0.0)
                .listener(new LeaderMetricsListener(registry))
                .build()) {
      assertThat(gauge(registry)).isZero();
      elector.start();
      clock.runDueTasks();
      assertThat(gauge(registry)).isEqualTo(1.0);
      clock.advance(Duration.ofSeconds(10)); // two renewals
      backend.failAll(LockFailureKind.UNAVAILABLE, Operation.EXTEND);
      clock.advance(Duration.ofSeconds(14)); // renewals at 15, 20, 22.5, 23.75, 24.5 s fail
      assertThat(gauge(registry)).isEqualTo(1.0);
      clock.advance(Duration.ofSeconds(1)); // the lease renewed at 10 s ends at 25 s
      assertThat(gauge(registry)).isZero();
      backend.heal();
      clock.advance(Duration.ofSeconds(2)); // acquired again
      elector.resign();
      assertThat(changes(registry, "acquired")).isEqualTo(2.0);
      assertThat(changes(registry, "lost")).isEqualTo(1.0);
      assertThat(changes(registry, "resigned")).isEqualTo(1.0);
      assertThat(renewals(registry, "extended")).isEqualTo(2);
      assertThat(renewals(registry, "failed"))
          .isEqualTo(5); // the lock retries at half the time left
    }
  }

  private static double gauge(SimpleMeterRegistry r) {
    return r.get(LeaderMetricsListener.IS_LEADER)
        .tag(LeaderMetricsListener.ROLE_TAG, "billing")
        .gauge()
        .value();
  }

  private static double changes(SimpleMeterRegistry r, String reason) {
    return r.get(LeaderMetricsListener.CHANGES)
        .tag(LeaderMetricsListener.ROLE_TAG, "billing")
        .tag(LeaderMetricsListener.REASON_TAG, reason)
        .counter()
        .count();
  }

  private static long renewals(SimpleMeterRegistry r, String outcome) {
    return r.get(LeaderMetricsListener.RENEW_DURATION)
        .tag(LeaderMetricsListener.ROLE_TAG, "billing")
        .tag(LeaderMetricsListener.OUTCOME_TAG, outcome)
        .timer()
        .count();
  }
}
