package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackendException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ShedLockTableBackend} on ShedLock's exact PostgreSQL DDL: what a grant writes, and how
 * rows written by ShedLock's own statements (its {@code usingDbTime()} forms) are read and taken.
 */
class ShedLockTableTest {
  private static final String TABLE = "shedlock_exact";
  private static final String PREFIX = "jobs:lock:shedlock:";
  private static final Duration LEASE = Duration.ofSeconds(20);

  private ShedLockTableBackend backend;
  private String name;

  @BeforeEach
  void setUp() {
    CompatTables.shedLock(TestDatabase.pool(), TABLE, false);
    backend =
        ShedLockTableBackend.builder(TestDatabase.pool()).table(TABLE).keyPrefix(PREFIX).build();
    name = "job-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @AfterEach
  void tearDown() {
    backend.close();
  }

  @Test
  void aGrantWritesShedLocksColumnsWithTheTokenAsLockedAt() throws Exception {
    String owner = "0123456789abcdef0123456789abcdef";
    AcquireOutcome o = get(backend.acquire(PREFIX + name, owner, "", LEASE));
    assertThat(o.granted()).isTrue();
    Row row = row(name);
    assertThat(row.lockedBy()).isEqualTo("01234567-89ab-cdef-0123-456789abcdef");
    assertThat(Duration.between(row.lockedAt(), row.lockUntil())).isEqualTo(LEASE);
    assertThat(o.fencingToken()).isEqualTo(TimestampRowStore.token(row.lockedAt()));
    assertThat(get(backend.read(PREFIX + name)).orElseThrow().owner()).isEqualTo(owner);
  }

  @Test
  void aLiveRowOfShedLockIsHeldByItsHost() throws Exception {
    sql(
        "INSERT INTO "
            + TABLE
            + " VALUES (?, timezone('utc', CURRENT_TIMESTAMP) + INTERVAL '20 seconds',"
            + " timezone('utc', CURRENT_TIMESTAMP), 'host-a')",
        name);
    AcquireOutcome o = get(backend.acquire(PREFIX + name, owner(), "", LEASE));
    assertThat(o.granted()).isFalse();
    LeaseRecord holder = o.holder().orElseThrow();
    assertThat(holder.owner()).isEqualTo("host-a");
    assertThat(holder.data()).isEmpty();
  }

  @Test
  void anExpiredRowOfShedLockIsTakenWithALargerToken() throws Exception {
    sql(
        "INSERT INTO "
            + TABLE
            + " VALUES (?, timezone('utc', CURRENT_TIMESTAMP) - INTERVAL '1 second',"
            + " timezone('utc', CURRENT_TIMESTAMP) + INTERVAL '1 hour', 'host-a')",
        name); // locked_at an hour ahead: a ShedLock node whose clock runs fast
    long before = TimestampRowStore.token(row(name).lockedAt());
    AcquireOutcome o = get(backend.acquire(PREFIX + name, owner(), "", LEASE));
    assertThat(o.granted()).isTrue();
    assertThat(o.fencingToken()).isGreaterThan(before);
  }

  @Test
  void shedLocksUpdateTakesOnlyAReleasedRowAndReleaseKeepsIt() throws Exception {
    String owner = owner();
    long token = get(backend.acquire(PREFIX + name, owner, "", LEASE)).fencingToken();
    String shedLockUpdate =
        "UPDATE "
            + TABLE
            + " SET lock_until = timezone('utc', CURRENT_TIMESTAMP) + INTERVAL '20 seconds',"
            + " locked_at = timezone('utc', CURRENT_TIMESTAMP), locked_by = 'host-b'"
            + " WHERE name = ? AND lock_until <= timezone('utc', CURRENT_TIMESTAMP)";
    assertThat(sql(shedLockUpdate, name)).as("ShedLock over a live HostLoom lease").isZero();
    assertThat(get(backend.release(PREFIX + name, owner)).released()).isTrue();
    Row released = row(name);
    assertThat(TimestampRowStore.token(released.lockedAt())).isEqualTo(token);
    assertThat(sql(shedLockUpdate, name)).as("ShedLock after the release").isOne();
    assertThat(get(backend.read(PREFIX + name)).orElseThrow().owner()).isEqualTo("host-b");
  }

  @Test
  void keysOutsideThePrefixAreRejectedAndOverlongNamesFail() throws Exception {
    assertThatThrownBy(() -> backend.acquire("other:" + name, owner(), "", LEASE))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> get(backend.acquire(PREFIX + "n".repeat(65), owner(), "", LEASE)))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(
            LockBackendException.class, e -> assertThat(e.kind()).isEqualTo(LockFailureKind.OTHER));
  }

  @Test
  void roundTripsPerOperationAsTheReadmeSays() throws Exception {
    CountingDataSource counting = new CountingDataSource(TestDatabase.pool());
    try (ShedLockTableBackend b =
        ShedLockTableBackend.builder(counting).table(TABLE).keyPrefix(PREFIX).build()) {
      String key = PREFIX + name;
      String a = owner();
      assertThat(statements(counting, () -> get(b.acquire(key, a, "", LEASE)))).isOne();
      assertThat(statements(counting, () -> get(b.acquire(key, owner(), "", LEASE))))
          .as("refused: the insert answers the holder")
          .isOne();
      assertThat(statements(counting, () -> get(b.extend(key, a, LEASE)))).isEqualTo(2);
      assertThat(statements(counting, () -> get(b.read(key)))).isOne();
      assertThat(statements(counting, () -> get(b.release(key, a)))).isEqualTo(2);
      assertThat(statements(counting, () -> get(b.acquire(key, a, "", LEASE))))
          .as("acquire of a released row: the insert answers the row, then the update")
          .isEqualTo(2);
    }
  }

  private interface Call {
    Object run() throws Exception;
  }

  private static long statements(CountingDataSource counting, Call call) throws Exception {
    counting.reset();
    Object unused = call.run();
    return counting.executions();
  }

  private record Row(String lockedBy, LocalDateTime lockedAt, LocalDateTime lockUntil) {}

  private static Row row(String name) throws SQLException {
    try (Connection c = TestDatabase.pool().getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT locked_by, locked_at, lock_until FROM " + TABLE + " WHERE name = ?")) {
      s.setString(1, name);
      try (ResultSet r = s.executeQuery()) {
        assertThat(r.next()).as("row " + name).isTrue();
        return new Row(
            r.getString(1),
            r.getObject(2, LocalDateTime.class),
            r.getObject(3, LocalDateTime.class));
      }
    }
  }

  private static int sql(String sql, String name) throws SQLException {
    try (Connection c = TestDatabase.pool().getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, name);
      return s.executeUpdate();
    }
  }

  private static String owner() {
    return UUID.randomUUID().toString().replace("-", "");
  }

  private static <T> T get(java.util.concurrent.CompletableFuture<T> f) throws Exception {
    return f.get(10, TimeUnit.SECONDS);
  }
}
