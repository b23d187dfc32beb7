package io.hostloom.reactor;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.leadership.ChangeType;
import io.hostloom.leadership.LeaderElector;
import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.testing.ManualLockClock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

/** Leadership changes as a Flux, on the manual clock. */
class ReactiveLeadershipTest {
  private static final Duration VERIFY = Duration.ofSeconds(10);

  private final ManualLockClock clock = new ManualLockClock();
  private final DistributedLock lock = TestLocks.inMemory(clock);
  private final LeaderElector elector =
      LeaderElector.builder(lock, "billing")
          .clock(clock)
          .jitterSource(() -> 0.0)
          .logger(org.slf4j.helpers.NOPLogger.NOP_LOGGER)
          .build();

  @AfterEach
  void close() {
    elector.close();
    lock.close();
  }

  @Test
  void changesFollowTheElectionAndAwaitEmitsTheTerm() {
    StepVerifier.create(ReactiveLeadership.changes(elector).take(2))
        .then(
            () -> {
              elector.start();
              clock.runDueTasks();
            })
        .assertNext(c -> assertThat(c.type()).isEqualTo(ChangeType.ACQUIRED))
        .then(
            () ->
                StepVerifier.create(ReactiveLeadership.awaitLeadership(elector))
                    .assertNext(l -> assertThat(l.term()).isPositive())
                    .expectComplete()
                    .verify(VERIFY))
        .then(() -> assertThat(elector.resign()).isTrue())
        .assertNext(c -> assertThat(c.type()).isEqualTo(ChangeType.RESIGNED))
        .expectComplete()
        .verify(VERIFY);
  }
}
