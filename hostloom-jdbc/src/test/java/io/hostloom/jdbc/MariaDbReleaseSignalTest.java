package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.capability.ReleaseSignalSuite;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The release-signal suite on MariaDB, which has no LISTEN/NOTIFY: every wait polls the key's row
 * (see {@code PollingReleaseWatcher}), and, as on PostgreSQL, an expiry signals nothing.
 */
class MariaDbReleaseSignalTest extends ReleaseSignalSuite {
  @Override
  protected LockBackend newBackend() {
    return MariaDbTestDatabase.backend().releaseNotifications(true).build();
  }

  /** A replace before a wait's first poll answered is its baseline, not a change. */
  @Override
  protected void awaitWaitsWatching(LockBackend instance) {
    TestTiming.await(
        "first polls answered",
        () -> ((JdbcLockBackend) instance).unobservedReleaseWaits() == 0,
        Duration.ofSeconds(10));
  }

  @Override
  protected OptionalInt pendingWaits(LockBackend instance) {
    return OptionalInt.of(((JdbcLockBackend) instance).pendingReleaseWaits());
  }

  /**
   * Measures (prints, never asserts) the hand-off latency of polling: from the release's answer to
   * the waiter's signal, with releases placed at different points of the poll schedule (0 to 570 ms
   * into the wait). Asserts only that every release is signalled.
   */
  @Test
  void handOffLatencyIsMeasured() throws InterruptedException {
    JdbcLockBackend holder = MariaDbTestDatabase.backend().build();
    JdbcLockBackend waiter = MariaDbTestDatabase.backend().releaseNotifications(true).build();
    try {
      List<Long> micros = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        String k = key("hand-off-" + i);
        TestTiming.get(holder.acquire(k, "h", "", Duration.ofMinutes(1)), Duration.ofSeconds(10));
        CompletableFuture<Boolean> woken = waiter.awaitRelease(k, Duration.ofSeconds(10));
        Thread.sleep(i * 30L); // spreads the releases over the poll schedule; not a wait for state
        TestTiming.get(holder.release(k, "h"), Duration.ofSeconds(10));
        long released = System.nanoTime();
        assertThat(TestTiming.get(woken, Duration.ofSeconds(10))).isTrue();
        micros.add((System.nanoTime() - released) / 1000);
      }
      Collections.sort(micros);
      System.out.printf(
          "[hand-off] polling, 20 releases 0-570 ms into the wait: median %.1f ms, max %.1f ms%n",
          micros.get(10) / 1000.0, micros.get(19) / 1000.0);
    } finally {
      holder.close();
      waiter.close();
    }
  }
}
