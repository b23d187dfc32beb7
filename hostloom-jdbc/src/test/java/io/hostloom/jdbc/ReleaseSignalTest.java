package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.testkit.TestTiming;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * LISTEN/NOTIFY wake-ups ({@link ReleaseSignal}). Waits use a {@code maxWait} of minutes, so a
 * future that completes within the test's short bound was completed by the signal.
 */
class ReleaseSignalTest {
  private static final Duration LONG = Duration.ofMinutes(5);
  private static final Duration WAIT = Duration.ofSeconds(20);

  private JdbcLockBackend holder;
  private JdbcLockBackend waiter;

  @BeforeEach
  void start() {
    holder = TestDatabase.notifyingBackend().build();
    waiter = TestDatabase.notifyingBackend().build();
    TestTiming.await(
        "listening",
        () -> holder.isListeningForReleases() && waiter.isListeningForReleases(),
        WAIT);
  }

  @AfterEach
  void stop() {
    holder.close();
    waiter.close();
  }

  @Test
  void aReleaseWakesAWaiterOnAnotherInstance() {
    String key = "signal-" + UUID.randomUUID();
    assertThat(get(holder.acquire(key, "a", "", LONG)).granted()).isTrue();
    CompletableFuture<Boolean> released = waiter.awaitRelease(key, LONG);
    assertThat(get(waiter.acquire(key, "b", "", LONG)).granted()).isFalse();
    assertThat(get(holder.release(key, "a")).released()).isTrue();
    assertThat(get(released)).isTrue();
    assertThat(get(waiter.acquire(key, "b", "", LONG)).granted()).isTrue();
  }

  @Test
  void onlyTheReleasedKeyWakes() {
    String k1 = "signal-" + UUID.randomUUID();
    String k2 = k1 + "-other";
    get(holder.acquire(k1, "a", "", LONG));
    get(holder.acquire(k2, "a", "", LONG));
    CompletableFuture<Boolean> w1 = waiter.awaitRelease(k1, LONG);
    CompletableFuture<Boolean> w2 = waiter.awaitRelease(k2, LONG);
    get(holder.release(k2, "a"));
    assertThat(get(w2)).isTrue();
    assertThat(w1).as("k1 was not released").isNotDone();
    get(holder.release(k1, "a"));
    assertThat(get(w1)).isTrue();
  }

  @Test
  void withoutAReleaseTheWaitEndsWithFalse() {
    assertThat(get(waiter.awaitRelease("quiet-" + UUID.randomUUID(), Duration.ofMillis(100))))
        .isFalse();
    assertThat(waiter.awaitRelease("k", Duration.ZERO)).isCompletedWithValue(false);
    assertThatThrownBy(() -> waiter.awaitRelease("k", Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> waiter.awaitRelease("", LONG))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void withNotificationsOffOnlyMaxWaitEndsTheWait() {
    try (JdbcLockBackend quiet = TestDatabase.backend().build()) {
      assertThat(quiet.isListeningForReleases()).isFalse();
      assertThat(get(quiet.awaitRelease("k", Duration.ofMillis(100)))).isFalse();
    }
  }

  @Test
  void theListenerReconnectsAndWakesWaitersThatMayHaveMissedAReleaseMeanwhile() throws Exception {
    String key = "signal-" + UUID.randomUUID();
    get(holder.acquire(key, "a", "", LONG));
    CompletableFuture<Boolean> before = waiter.awaitRelease(key, LONG);
    try (Connection c = TestDatabase.server().connect(TestDatabase.NAME);
        Statement s = c.createStatement()) {
      s.execute(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
              + TestDatabase.NAME
              + "' AND pid <> pg_backend_pid() AND query LIKE 'LISTEN %'");
    }
    assertThat(get(before)).as("woken: a release may have been missed").isTrue();
    TestTiming.await("listening again", () -> waiter.isListeningForReleases(), WAIT);
    CompletableFuture<Boolean> after = waiter.awaitRelease(key, LONG);
    get(holder.release(key, "a"));
    assertThat(get(after)).isTrue();
  }

  private static <T> T get(CompletableFuture<T> f) {
    return TestTiming.get(f, WAIT);
  }
}
