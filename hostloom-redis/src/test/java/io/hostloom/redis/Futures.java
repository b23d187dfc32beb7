package io.hostloom.redis;

import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** Waits for backend futures in tests, bounded and scaled. */
final class Futures {
  private Futures() {}

  static <T> T await(CompletableFuture<T> future) {
    return TestTiming.get(future, Duration.ofSeconds(10));
  }
}
