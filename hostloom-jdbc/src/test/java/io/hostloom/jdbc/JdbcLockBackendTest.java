package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.testkit.TestTiming;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Behaviour specific to the PostgreSQL backend, beyond the conformance suites. */
class JdbcLockBackendTest {
  private static final Duration LONG = Duration.ofMinutes(5);
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final JdbcLockBackend backend = TestDatabase.backend().build();

  @AfterEach
  void close() {
    backend.close();
  }

  @Test
  void keysOwnersAndDataWithAnyCharacterRoundTripAndStayDistinct() {
    List<String> values =
        List.of(
            "nul\u0000", "nul\u00010", "\u0001", "lone \ud800", "lone \udc00x", "\u0001u0041", "A");
    String prefix = "chars-" + UUID.randomUUID() + ":";
    for (String v : values) {
      AcquireOutcome o = get(backend.acquire(prefix + v, v + "-owner", v, LONG));
      assertThat(o.granted()).as("distinct key %s", v).isTrue();
    }
    for (String v : values) {
      LeaseRecord r = get(backend.read(prefix + v)).orElseThrow();
      assertThat(r.owner()).isEqualTo(v + "-owner");
      assertThat(r.data()).isEqualTo(v);
      LeaseRecord holder =
          get(backend.acquire(prefix + v, "other", "", LONG)).holder().orElseThrow();
      assertThat(holder.owner()).isEqualTo(v + "-owner");
      assertThat(holder.data()).isEqualTo(v);
      assertThat(get(backend.release(prefix + v, v + "-owner")).released()).isTrue();
    }
  }

  @Test
  void longKeysAreDistinctUpToTheLastCharacter() {
    String base =
        "long-" + UUID.randomUUID() + "-" + "x".repeat(JdbcLockBackend.MAX_KEY_LENGTH - 60);
    String k1 = base + "1";
    String k2 = base + "2";
    assertThat(get(backend.acquire(k1, "a", "", LONG)).granted()).isTrue();
    assertThat(get(backend.acquire(k2, "b", "", LONG)).granted()).isTrue();
    assertThat(get(backend.read(k1)).orElseThrow().owner()).isEqualTo("a");
    assertThat(get(backend.read(k2)).orElseThrow().owner()).isEqualTo("b");
  }

  @Test
  void tokensKeepIncreasingAfterReleaseExpiryAndPurge() throws SQLException {
    String key = "tokens-" + UUID.randomUUID();
    long first = get(backend.acquire(key, "a", "", LONG)).fencingToken();
    assertThat(get(backend.release(key, "a")).released()).isTrue();
    assertThat(get(backend.release(key, "a")).released()).as("released already").isFalse();
    long second = get(backend.acquire(key, "a", "", Duration.ofMillis(1))).fencingToken();
    assertThat(second).as("a fresh grant, also for the same owner").isGreaterThan(first);
    TestTiming.await(() -> get(backend.read(key)).isEmpty(), WAIT);
    assertThat(get(backend.release(key, "a")).released()).as("expired").isFalse();

    // a row that ended a day ago is purged; the one that ended just now is kept (minimum age)
    String ancient = "ancient-" + UUID.randomUUID();
    execute(
        "INSERT INTO hostloom_locks VALUES ('"
            + ancient
            + "', 'x', '', 1, now() - interval '2 days', now() - interval '1 day')");
    assertThat(get(backend.purgeExpired(Duration.ZERO))).isGreaterThanOrEqualTo(1);
    assertThat(rows(ancient)).isZero();
    assertThat(rows(key)).isOne();
    long third = get(backend.acquire(key, "c", "", LONG)).fencingToken();
    assertThat(third).isGreaterThan(second);
    assertThat(get(backend.acquire(ancient, "c", "", LONG)).fencingToken()).isGreaterThan(third);
    assertThat(backend.minimumPurgeAge()).isEqualTo(Duration.ofSeconds(20));
  }

  @Test
  void sameOwnerAcquireKeepsTokenAndDataAndOnlyResetsExpiry() {
    String key = "refresh-" + UUID.randomUUID();
    long token = get(backend.acquire(key, "a", "first", Duration.ofSeconds(30))).fencingToken();
    AcquireOutcome again = get(backend.acquire(key, "a", "second", LONG));
    assertThat(again.fencingToken()).isEqualTo(token);
    LeaseRecord r = get(backend.read(key)).orElseThrow();
    assertThat(r.data()).isEqualTo("first");
    assertThat(r.remaining()).isGreaterThan(Duration.ofSeconds(30)).isLessThanOrEqualTo(LONG);
  }

  @Test
  void purgeNeverRemovesALiveLease() {
    String key = "purge-" + UUID.randomUUID();
    get(backend.acquire(key, "a", "", LONG));
    get(backend.purgeExpired(Duration.ZERO));
    assertThat(get(backend.read(key))).isPresent();
    assertThatThrownBy(() -> backend.purgeExpired(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void leasesAreWholeMillisecondsRoundedUp() {
    assertThat(JdbcLockBackend.leaseMillis(Duration.ofNanos(1))).isEqualTo(1);
    assertThat(JdbcLockBackend.leaseMillis(Duration.ofMillis(5))).isEqualTo(5);
    assertThat(JdbcLockBackend.leaseMillis(Duration.ofMillis(5).plusNanos(1))).isEqualTo(6);
    assertThat(JdbcLockBackend.leaseMillis(Duration.ofSeconds(Long.MAX_VALUE)))
        .isEqualTo(JdbcLockBackend.MAX_LEASE.toMillis());
    assertThatThrownBy(() -> JdbcLockBackend.leaseMillis(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("lease must be positive but was PT0S");
  }

  @Test
  void aOneNanosecondLeaseIsAOneMillisecondLease() {
    String key = "tiny-" + UUID.randomUUID();
    assertThat(get(backend.acquire(key, "a", "", Duration.ofNanos(1))).granted()).isTrue();
    TestTiming.await(() -> get(backend.acquire(key, "b", "", LONG)).granted(), WAIT);
  }

  @Test
  void oversizedArgumentsAreRejectedBeforeAnythingIsSent() {
    String tooLong = "k".repeat(JdbcLockBackend.MAX_KEY_LENGTH + 1);
    assertThatThrownBy(() -> backend.acquire(tooLong, "a", "", LONG))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("key must be at most 8192 characters but was 8193");
    String bigValue = "v".repeat(JdbcLockBackend.MAX_VALUE_LENGTH + 1);
    assertThatThrownBy(() -> backend.acquire("k", bigValue, "", LONG))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> backend.replace("k", "a", "b", bigValue, LONG))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void builderRejectsBadValuesNamingThem() {
    JdbcLockBackend.Builder b = JdbcLockBackend.builder(TestDatabase.pool());
    assertThatThrownBy(() -> b.commandTimeout(Duration.ZERO))
        .hasMessage("commandTimeout must be positive but was PT0S");
    assertThatThrownBy(() -> b.commandTimeout(Duration.ofHours(2)))
        .hasMessage("commandTimeout must be at most PT1H but was PT2H");
    assertThatThrownBy(() -> b.executorThreads(0))
        .hasMessage("executorThreads must be between 1 and 1024 but was 0");
    assertThatThrownBy(() -> b.maxQueuedCalls(0))
        .hasMessage("maxQueuedCalls must be positive but was 0");
    assertThatThrownBy(() -> JdbcLockBackend.builder(null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void aClosedBackendFailsUnavailableAndReportsUnhealthy() {
    backend.close();
    backend.close(); // idempotent
    CompletableFuture<AcquireOutcome> f = backend.acquire("k", "a", "", LONG);
    assertThatThrownBy(() -> get(f))
        .cause()
        .isInstanceOfSatisfying(
            LockBackendException.class,
            e -> assertThat(e.kind()).isEqualTo(LockFailureKind.UNAVAILABLE));
    assertThat(get(backend.checkHealth()).healthy()).isFalse();
    assertThat(get(backend.awaitRelease("k", LONG))).isFalse();
  }

  private static void execute(String sql) throws SQLException {
    try (Connection c = TestDatabase.pool().getConnection();
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static int rows(String key) throws SQLException {
    try (Connection c = TestDatabase.pool().getConnection();
        PreparedStatement s =
            c.prepareStatement("SELECT count(*) FROM hostloom_locks WHERE lock_key = ?")) {
      s.setString(1, key);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return r.getInt(1);
      }
    }
  }

  private static <T> T get(CompletableFuture<T> f) {
    return TestTiming.get(f, WAIT);
  }
}
