package io.hostloom.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TestTimingTest {
  private final String saved = System.getProperty(TestTiming.TIME_FACTOR_PROPERTY);

  @AfterEach
  void restore() {
    if (saved == null) {
      System.clearProperty(TestTiming.TIME_FACTOR_PROPERTY);
    } else {
      System.setProperty(TestTiming.TIME_FACTOR_PROPERTY, saved);
    }
  }

  @Test
  void scalesTimeoutsByTheSystemProperty() {
    System.setProperty(TestTiming.TIME_FACTOR_PROPERTY, "2.5");
    assertThat(TestTiming.scaled(Duration.ofSeconds(2))).isEqualTo(Duration.ofSeconds(5));
    System.clearProperty(TestTiming.TIME_FACTOR_PROPERTY);
    assertThat(TestTiming.factor()).isEqualTo(1.0);
  }

  @Test
  void rejectsABadFactor() {
    System.setProperty(TestTiming.TIME_FACTOR_PROPERTY, "-1");
    assertThatThrownBy(TestTiming::factor)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("but was -1");
    System.setProperty(TestTiming.TIME_FACTOR_PROPERTY, "fast");
    assertThatThrownBy(TestTiming::factor).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void awaitPollsUntilTheConditionHolds() {
    AtomicInteger polls = new AtomicInteger();
    TestTiming.await("the third poll", () -> polls.incrementAndGet() >= 3, Duration.ofSeconds(5));
    assertThat(polls).hasValue(3);
  }

  @Test
  void awaitFailsWithTheDescriptionAfterTheTimeout() {
    assertThatThrownBy(() -> TestTiming.await("pigs fly", () -> false, Duration.ofMillis(20)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("waiting until pigs fly");
  }

  @Test
  void getReturnsTheValueOrReportsTheFailure() {
    assertThat(TestTiming.get(CompletableFuture.completedFuture("v"), Duration.ofSeconds(1)))
        .isEqualTo("v");
    IllegalStateException boom = new IllegalStateException("boom");
    assertThatThrownBy(
            () -> TestTiming.get(CompletableFuture.failedFuture(boom), Duration.ofSeconds(1)))
        .isInstanceOf(TestTiming.CompletionFailure.class)
        .hasCause(boom);
    assertThatThrownBy(() -> TestTiming.get(new CompletableFuture<>(), Duration.ofMillis(10)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("no answer within");
  }
}
