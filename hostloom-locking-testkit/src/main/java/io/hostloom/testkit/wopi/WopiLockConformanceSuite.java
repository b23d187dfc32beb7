package io.hostloom.testkit.wopi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.testing.CountingLockBackend;
import io.hostloom.locking.testing.CountingLockBackend.Operation;
import io.hostloom.locking.time.LockClock;
import io.hostloom.testkit.TestTiming;
import io.hostloom.wopi.WopiLockComparer;
import io.hostloom.wopi.WopiLockIds;
import io.hostloom.wopi.WopiLockInfo;
import io.hostloom.wopi.WopiLockOperation;
import io.hostloom.wopi.WopiLockProtocol;
import io.hostloom.wopi.WopiLockProvider;
import io.hostloom.wopi.WopiLockResponse;
import io.hostloom.wopi.WopiLockResult;
import io.hostloom.wopi.WopiLockUnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The WOPI lock conformance suite: every backend runs it against its real server, through {@link
 * WopiLockProvider} and {@link WopiLockProtocol}. It covers the checklist of the .NET reference's
 * {@code LockProviderConformanceTests} and the gaps that suite left: truly parallel races from real
 * threads over two host instances with a history check, expiry of refresh/remove/relock, 1024-char
 * and exotic ids, invalid ids, and the backend calls of every WOPI request.
 *
 * <p><b>Hooks.</b> A subclass implements {@link #newBackend()} and, for a real server, usually
 * overrides nothing else: locks expire after {@link #expiry()} (3 s, scaled by {@code
 * hostloom.test.timeFactor}) of real time that {@link #passTime} waits for. Time-exact tests (the
 * 30:00 boundary, exact reported times) live in {@link WopiLockManualClockConformanceSuite}, for
 * backends whose clock a test can move.
 *
 * <p><b>Isolation.</b> Every test uses fresh file ids (UUIDs) under a key prefix unique to the test
 * instance, so tests may share one server and leave their keys behind.
 */
public abstract class WopiLockConformanceSuite {
  /** The five exotic-but-valid lock ids of the reference suite, plus a few more edges. */
  static final List<String> EXOTIC_LOCK_IDS =
      List.of(
          "{\"S\":\"AB\\\"12\\\"CD\"}", // escaped quotes
          "null", // a JSON null
          "{\"S\":\"AB12CD34\",\"F\":0}", // an OOS-style JSON lock
          "key=value;flag:on",
          "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", // every ASCII punctuation character
          " padded with spaces ",
          "x",
          "{\"S\":\"\\ud83d\\ude00 \\u00e9\\n\"}", // JSON escapes for non-ASCII and controls
          "a".repeat(WopiLockIds.MAX_LENGTH));

  /** Lock ids every operation must reject before anything reaches the backend. */
  static final List<String> INVALID_LOCK_IDS =
      Arrays.asList(
          null,
          "",
          "a".repeat(WopiLockIds.MAX_LENGTH + 1),
          "caf\u00e9",
          "emoji \ud83d\ude00",
          "line\nbreak",
          "tab\tseparated",
          "nul\u0000",
          "del\u007f");

  private final String keyPrefix = "wopi:conformance-" + UUID.randomUUID() + ":";
  private WopiLockProvider first;
  private WopiLockProvider second;

  // ------------------------------------------------------------------------------------------
  // Hooks

  /**
   * A new backend client over the same storage as every other one this test instance created: a
   * second host instance. The in-memory backend returns the same instance each time within a test.
   * Called lazily from tests (a few times per test), never from a constructor or a {@code
   * BeforeEach}, so a subclass may start its server in its own {@code BeforeAll}/{@code
   * BeforeEach}. The subclass owns the clients it returns and closes them (e.g. in an {@code
   * AfterEach}).
   */
  protected abstract LockBackend newBackend();

  /**
   * The lock expiry used by the suite's providers: short on real servers, where the suite waits for
   * it in real time; long enough that a handful of backend calls take a small fraction of it.
   * Default 3 s, scaled by {@code hostloom.test.timeFactor}.
   */
  protected Duration expiry() {
    return TestTiming.scaled(Duration.ofSeconds(3));
  }

  /** The clock the providers report times with; default the system clock. */
  protected LockClock clock() {
    return LockClock.system();
  }

  /**
   * Lets {@code duration} pass on the backend's clock. Default: a bounded real wait of exactly that
   * long (not scaled: it stands for lease time passing on the server).
   */
  protected void passTime(Duration duration) {
    TestTiming.pass(duration);
  }

  /**
   * How long after {@link #expiry()} has passed a backend may still report the lock (its lease
   * resolution plus the latency of the call that set it). Default 5 s scaled.
   */
  protected Duration expiryTolerance() {
    return TestTiming.scaled(Duration.ofSeconds(5));
  }

  /** The pause between polls while waiting for a lock to expire; default 50 ms. */
  protected Duration pollInterval() {
    return Duration.ofMillis(50);
  }

  /**
   * How far a reported lock time may be from the time the test expects (call latency and clock
   * resolution). Default 1 s scaled.
   */
  protected Duration timeTolerance() {
    return TestTiming.scaled(Duration.ofSeconds(1));
  }

  /** Rounds of each parallel race test (each round a fresh file); default 20. */
  protected int raceRounds() {
    return 20;
  }

  /** Threads racing in each parallel test; default 6. */
  protected int raceThreads() {
    return 6;
  }

  /**
   * Requests each client sends in {@link #requestsFromSeveralInstancesAreLinearizable}; default 40
   * (with {@link #raceThreads()} clients: 240 requests, a search of well under a second).
   */
  protected int linearizabilityRequestsPerClient() {
    return 40;
  }

  // ------------------------------------------------------------------------------------------
  // Helpers for subclasses

  /** A provider over {@code backend} with the suite's expiry, clock and key prefix. */
  protected final WopiLockProvider newProvider(LockBackend backend, WopiLockComparer comparer) {
    return WopiLockProvider.builder(backend)
        .comparer(comparer)
        .expiry(expiry())
        .clock(clock())
        .keyPrefix(keyPrefix)
        .build();
  }

  /** A provider over a {@link #newBackend() new backend} (another host instance). */
  protected final WopiLockProvider newProvider(WopiLockComparer comparer) {
    return newProvider(newBackend(), comparer);
  }

  /** Host instance one (ordinal comparer), created on first use in a test. */
  protected final WopiLockProvider first() {
    if (first == null) {
      first = newProvider(WopiLockComparer.ordinal());
    }
    return first;
  }

  /** Host instance two (ordinal comparer, its own backend client), created on first use. */
  protected final WopiLockProvider second() {
    if (second == null) {
      second = newProvider(WopiLockComparer.ordinal());
    }
    return second;
  }

  /** A file id no other test uses. */
  protected static String newFileId() {
    return "file-" + UUID.randomUUID();
  }

  /**
   * Lets the lock of {@code fileId} expire: passes {@link #expiry()}, then polls until {@code
   * provider} no longer reports it, failing after {@link #expiryTolerance()}.
   */
  protected final void letExpire(WopiLockProvider provider, String fileId) {
    passTime(expiry());
    Duration waited = Duration.ZERO;
    while (provider.getLock(fileId).isPresent()) {
      if (waited.compareTo(expiryTolerance()) >= 0) {
        fail("the lock of %s was still reported %s after its expiry", fileId, waited);
      }
      passTime(pollInterval());
      waited = waited.plus(pollInterval());
    }
  }

  /** The live lock of {@code fileId}, failing when there is none. */
  protected static WopiLockInfo lockOf(WopiLockProvider provider, String fileId) {
    Optional<WopiLockInfo> lock = provider.getLock(fileId);
    assertThat(lock).as("lock of %s", fileId).isPresent();
    return lock.get();
  }

  /** Asserts {@code actual} is within {@link #timeTolerance()} of {@code expected}. */
  protected final void assertCloseTo(Instant actual, Instant expected) {
    Duration diff = Duration.between(expected, actual).abs();
    assertThat(diff)
        .as("%s should be within %s of %s", actual, timeTolerance(), expected)
        .isLessThanOrEqualTo(timeTolerance());
  }

  /** Time that passes between two observations in "was it extended?" tests. */
  private Duration aWhile() {
    return expiry().multipliedBy(2).dividedBy(5);
  }

  private static void assertExtended(WopiLockInfo before, WopiLockInfo after, Duration passed) {
    assertThat(after.expiresAt())
        .as("expiry moved forward by about %s", passed)
        .isAfterOrEqualTo(before.expiresAt().plus(passed.dividedBy(2)));
  }

  private static void assertNotExtended(WopiLockInfo before, WopiLockInfo after, Duration passed) {
    assertThat(after.expiresAt())
        .as("expiry did not move (%s passed)", passed)
        .isBefore(before.expiresAt().plus(passed.dividedBy(2)));
  }

  private static void assertFailedWith(WopiLockResult result, String currentLockId) {
    assertThat(result.success()).as("success").isFalse();
    assertThat(result.currentLock()).as("current lock").isPresent();
    assertThat(result.currentLock().get().lockId()).isEqualTo(currentLockId);
    assertThat(result.currentLockIdOrEmpty()).isEqualTo(currentLockId);
  }

  private static void assertFailedUnlocked(WopiLockResult result) {
    assertThat(result.success()).as("success").isFalse();
    assertThat(result.currentLock()).as("current lock").isEmpty();
    assertThat(result.currentLockIdOrEmpty()).isEmpty();
  }

  private static void assertSucceeded(WopiLockResult result) {
    assertThat(result.success()).as("success (current: %s)", result.currentLock()).isTrue();
  }

  static Stream<String> exoticLockIds() {
    return EXOTIC_LOCK_IDS.stream();
  }

  static Stream<String> invalidLockIds() {
    return INVALID_LOCK_IDS.stream();
  }

  // ------------------------------------------------------------------------------------------
  // Add

  @Test
  void addOnAnUnlockedFileSucceeds() {
    String file = newFileId();
    Instant before = clock().instant();
    assertSucceeded(first().add(file, "lock-1"));
    WopiLockInfo lock = lockOf(first(), file);
    assertThat(lock.fileId()).isEqualTo(file);
    assertThat(lock.lockId()).isEqualTo("lock-1");
    assertCloseTo(lock.lastRefreshed(), before);
    assertThat(Duration.between(lock.lastRefreshed(), lock.expiresAt())).isEqualTo(expiry());
  }

  @Test
  void addOnALockedFileFailsWithTheHoldersLock() {
    String file = newFileId();
    assertSucceeded(first().add(file, "lock-1"));
    WopiLockInfo before = lockOf(first(), file);
    passTime(aWhile());
    assertFailedWith(second().add(file, "lock-2"), "lock-1");
    WopiLockInfo after = lockOf(second(), file);
    assertThat(after.lockId()).isEqualTo("lock-1");
    assertNotExtended(before, after, aWhile());
  }

  @Test
  void addWithTheCurrentIdRefreshesTheLock() {
    String file = newFileId();
    assertSucceeded(first().add(file, "lock-1"));
    WopiLockInfo before = lockOf(first(), file);
    passTime(aWhile());
    assertSucceeded(second().add(file, "lock-1"));
    WopiLockInfo after = lockOf(first(), file);
    assertThat(after.lockId()).isEqualTo("lock-1");
    assertExtended(before, after, aWhile());
  }

  @Test
  void addAfterRemoveSucceeds() {
    String file = newFileId();
    assertSucceeded(first().add(file, "lock-1"));
    assertSucceeded(first().remove(file, "lock-1"));
    assertSucceeded(second().add(file, "lock-2"));
    assertThat(lockOf(first(), file).lockId()).isEqualTo("lock-2");
  }

  @Test
  void addTakesOverAnExpiredLock() {
    String file = newFileId();
    assertSucceeded(first().add(file, "lock-1"));
    letExpire(second(), file);
    assertSucceeded(second().add(file, "lock-2"));
    assertThat(lockOf(first(), file).lockId()).isEqualTo("lock-2");
    assertFailedWith(first().refresh(file, "lock-1"), "lock-2");
  }

  // ------------------------------------------------------------------------------------------
  // Get

  @Test
  void getLockReportsTheLockToEveryInstance() {
    String file = newFileId();
    assertSucceeded(first().add(file, "lock-1"));
    WopiLockInfo a = lockOf(first(), file);
    WopiLockInfo b = lockOf(second(), file);
    assertThat(b.lockId()).isEqualTo("lock-1");
    assertThat(b.fileId()).isEqualTo(file);
    assertCloseTo(b.expiresAt(), a.expiresAt());
  }

  @Test
  void getLockOnAnUnlockedFileIsEmpty() {
    assertThat(first().getLock(newFileId())).isEmpty();
  }

  @Test
  void getLockAfterExpiryIsEmpty() {
    String file = newFileId();
    assertSucceeded(first().add(file, "lock-1"));
    assertThat(second().getLock(file)).isPresent();
    letExpire(second(), file);
    assertThat(first().getLock(file)).isEmpty();
  }

  // ------------------------------------------------------------------------------------------
  // Refresh

  @Test
  void refreshWithTheCurrentIdExtendsAndKeepsTheId() {
    String file = newFileId();
    assertSucceeded(first().add(file, "lock-1"));
    WopiLockInfo before = lockOf(first(), file);
    passTime(aWhile());
    Instant refreshedAt = clock().instant();
    assertSucceeded(second().refresh(file, "lock-1"));
    WopiLockInfo after = lockOf(first(), file);
    assertThat(after.lockId()).isEqualTo("lock-1");
    assertExtended(before, after, aWhile());
    assertCloseTo(after.lastRefreshed(), refreshedAt);
  }

  @Test
  void refreshWithAnotherIdFailsWithTheCurrentLockAndChangesNothing() {
    String file = newFileId();
    assertSucceeded(first().add(file, "lock-1"));
    WopiLockInfo before = lockOf(first(), file);
    passTime(aWhile());
    assertFailedWith(second().refresh(file, "lock-2"), "lock-1");
    WopiLockInfo after = lockOf(first(), file);
    assertThat(after.lockId()).isEqualTo("lock-1");
    assertNotExtended(before, after, aWhile());
  }

  @Test
  void refreshOnAnUnlockedFileFails() {
    assertFailedUnlocked(first().refresh(newFileId(), "lock-1"));
  }

  @Test
  void refreshAfterAConcurrentRelockFailsWithTheNewLock() {
    String file = newFileId();
    assertSucceeded(first().add(file, "lock-1"));
    assertThat(lockOf(first(), file).lockId()).isEqualTo("lock-1"); // instance one observes
    assertSucceeded(second().unlockAndRelock(file, "lock-2", "lock-1")); // instance two swaps
    WopiLockInfo swapped = lockOf(second(), file);
    passTime(aWhile());
    assertFailedWith(first().refresh(file, "lock-1"), "lock-2"); // the CAS sees the swap
    WopiLockInfo after = lockOf(second(), file);
    assertThat(after.lockId()).isEqualTo("lock-2");
    assertNotExtended(swapped, after, aWhile());
  }

  @Test
  void refreshKeepsTheLockPastItsOriginalExpiry() {
    String file = newFileId();
    Duration partOfExpiry = expiry().multipliedBy(3).dividedBy(5);
    assertSucceeded(first().add(file, "lock-1"));
    passTime(partOfExpiry);
    assertSucceeded(second().refresh(file, "lock-1"));
    passTime(partOfExpiry); // 120% of the expiry since add, 60% since the refresh
    assertThat(lockOf(first(), file).lockId()).isEqualTo("lock-1");
    assertSucceeded(first().refresh(file, "lock-1"));
  }

  @Test
  void refreshAfterExpiryFails() {
    String file = newFileId();
    assertSucceeded(first().add(file, "lock-1"));
    letExpire(first(), file);
    assertFailedUnlocked(second().refresh(file, "lock-1"));
    assertThat(first().getLock(file)).isEmpty();
  }

  // ------------------------------------------------------------------------------------------
  // Remove

  @Test
  void removeWithTheCurrentIdUnlocks() {
    String file = newFileId();
    assertSucceeded(first().add(file, "lock-1"));
    assertSucceeded(second().remove(file, "lock-1"));
    assertThat(first().getLock(file)).isEmpty();
    assertThat(second().getLock(file)).isEmpty();
  }

  @Test
  void removeOnAnUnlockedFileFails() {
    assertFailedUnlocked(first().remove(newFileId(), "lock-1"));
  }

  @Test
  void removeWithAnotherIdFailsAndKeepsTheLock() {
    String file = newFileId();
    assertSucceeded(first().add(file, "lock-1"));
    assertFailedWith(second().remove(file, "lock-2"), "lock-1");
    assertThat(lockOf(first(), file).lockId()).isEqualTo("lock-1");
  }

  @Test
  void removeAfterExpiryFails() {
    String file = newFileId();
    assertSucceeded(first().add(file, "lock-1"));
    letExpire(first(), file);
    assertFailedUnlocked(second().remove(file, "lock-1"));
  }

  @Test
  void removeAfterAConcurrentRelockFailsAndKeepsTheNewLock() {
    String file = newFileId();
    assertSucceeded(first().add(file, "lock-1"));
    assertSucceeded(second().unlockAndRelock(file, "lock-2", "lock-1"));
    assertFailedWith(first().remove(file, "lock-1"), "lock-2");
    assertThat(lockOf(second(), file).lockId()).isEqualTo("lock-2");
  }

  // ------------------------------------------------------------------------------------------
  // UnlockAndRelock

  @Test
  void relockWithTheCurrentIdSwapsWithAFreshExpiry() {
    String file = newFileId();
    assertSucceeded(first().add(file, "lock-1"));
    WopiLockInfo before = lockOf(first(), file);
    passTime(aWhile());
    Instant relockedAt = clock().instant();
    assertSucceeded(second().unlockAndRelock(file, "lock-2", "lock-1"));
    WopiLockInfo after = lockOf(first(), file);
    assertThat(after.lockId()).isEqualTo("lock-2");
    assertExtended(before, after, aWhile());
    assertCloseTo(after.lastRefreshed(), relockedAt);
    assertFailedWith(first().refresh(file, "lock-1"), "lock-2");
    assertSucceeded(first().refresh(file, "lock-2"));
  }

  @Test
  void relockWithAnotherIdFailsAndChangesNothing() {
    String file = newFileId();
    assertSucceeded(first().add(file, "lock-1"));
    WopiLockInfo before = lockOf(first(), file);
    passTime(aWhile());
    assertFailedWith(second().unlockAndRelock(file, "lock-3", "lock-2"), "lock-1");
    WopiLockInfo after = lockOf(first(), file);
    assertThat(after.lockId()).isEqualTo("lock-1");
    assertNotExtended(before, after, aWhile());
  }

  @Test
  void relockOnAnUnlockedFileFails() {
    String file = newFileId();
    assertFailedUnlocked(first().unlockAndRelock(file, "lock-2", "lock-1"));
    assertThat(first().getLock(file)).isEmpty();
  }

  @Test
  void relockAfterAConcurrentRelockDoesNotStealTheLock() {
    String file = newFileId();
    assertSucceeded(first().add(file, "lock-1"));
    assertThat(lockOf(first(), file).lockId()).isEqualTo("lock-1"); // instance one observes
    assertSucceeded(second().unlockAndRelock(file, "lock-2", "lock-1"));
    assertFailedWith(first().unlockAndRelock(file, "lock-3", "lock-1"), "lock-2");
    assertThat(lockOf(second(), file).lockId()).isEqualTo("lock-2");
  }

  @Test
  void relockAfterExpiryFails() {
    String file = newFileId();
    assertSucceeded(first().add(file, "lock-1"));
    letExpire(first(), file);
    assertFailedUnlocked(second().unlockAndRelock(file, "lock-2", "lock-1"));
    assertThat(first().getLock(file)).isEmpty();
  }

  // ------------------------------------------------------------------------------------------
  // Comparers, through the backend's own owner comparison

  @Test
  void relockOfAJsonLockWithAnExtraPropertyFailsUnderTheOrdinalComparer() {
    String file = newFileId();
    assertSucceeded(first().add(file, "{\"S\":\"AB12\"}"));
    assertFailedWith(
        second().unlockAndRelock(file, "new-lock", "{\"S\":\"AB12\",\"F\":4}"), "{\"S\":\"AB12\"}");
    assertThat(lockOf(first(), file).lockId()).isEqualTo("{\"S\":\"AB12\"}");
  }

  @Test
  void relockOfAJsonLockWithAnExtraPropertySwapsUnderTheJsonShapedComparer() {
    WopiLockProvider a = newProvider(WopiLockComparer.jsonShaped());
    WopiLockProvider b = newProvider(WopiLockComparer.jsonShaped());
    String file = newFileId();
    assertSucceeded(a.add(file, "{\"S\":\"AB12\"}"));
    assertSucceeded(b.unlockAndRelock(file, "new-lock", "{\"S\":\"AB12\",\"F\":4}"));
    assertThat(lockOf(a, file).lockId()).isEqualTo("new-lock");
  }

  @Test
  void jsonShapedComparerTreatsEqualSValuesAsTheSameLockAndKeepsTheStoredId() {
    WopiLockProvider a = newProvider(WopiLockComparer.jsonShaped());
    WopiLockProvider b = newProvider(WopiLockComparer.jsonShaped());
    String file = newFileId();
    String original = "{\"S\":\"caf\\u00e9\",\"F\":1}";
    assertSucceeded(a.add(file, original));
    assertSucceeded(b.add(file, "{\"F\":2,\"S\":\"caf\u00e9\"}".replace("\u00e9", "\\u00e9")));
    assertSucceeded(b.refresh(file, "{\"S\":\"caf\\u00e9\",\"E\":true}"));
    assertThat(lockOf(b, file).lockId()).isEqualTo(original);
    assertFailedWith(b.refresh(file, "{\"S\":\"cafe\"}"), original);
    assertFailedWith(b.add(file, "caf\\u00e9"), original); // not JSON: compared ordinally
    assertSucceeded(a.remove(file, "{\"S\":\"caf\\u00e9\"}"));
    assertThat(b.getLock(file)).isEmpty();
  }

  // ------------------------------------------------------------------------------------------
  // Lock ids

  @ParameterizedTest
  @MethodSource("exoticLockIds")
  void exoticLockIdsRoundTripThroughAdd(String lockId) {
    String file = newFileId();
    assertSucceeded(first().add(file, lockId));
    assertThat(lockOf(second(), file).lockId()).isEqualTo(lockId);
    assertFailedWith(second().add(file, "other"), lockId);
    assertSucceeded(second().refresh(file, lockId));
    assertSucceeded(second().remove(file, lockId));
  }

  @ParameterizedTest
  @MethodSource("exoticLockIds")
  void exoticLockIdsRoundTripThroughRelock(String lockId) {
    String file = newFileId();
    assertSucceeded(first().add(file, "plain"));
    assertSucceeded(second().unlockAndRelock(file, lockId, "plain"));
    assertThat(lockOf(first(), file).lockId()).isEqualTo(lockId);
    assertFailedWith(first().unlockAndRelock(file, "other", "plain"), lockId);
    assertSucceeded(first().unlockAndRelock(file, "plain", lockId));
    assertThat(lockOf(second(), file).lockId()).isEqualTo("plain");
  }

  @ParameterizedTest
  @MethodSource("exoticLockIds")
  void exoticLockIdsWorkUnderTheJsonShapedComparer(String lockId) {
    WopiLockProvider a = newProvider(WopiLockComparer.jsonShaped());
    String file = newFileId();
    assertSucceeded(a.add(file, lockId));
    assertThat(lockOf(a, file).lockId()).isEqualTo(lockId);
    assertSucceeded(a.unlockAndRelock(file, "plain", lockId));
    assertSucceeded(a.unlockAndRelock(file, lockId, "plain"));
    assertSucceeded(a.remove(file, lockId));
  }

  @ParameterizedTest
  @MethodSource("invalidLockIds")
  void invalidLockIdsAreRejectedBeforeAnythingIsSent(String invalid) {
    CountingLockBackend counting = new CountingLockBackend(newBackend());
    WopiLockProvider p = newProvider(counting, WopiLockComparer.ordinal());
    String file = newFileId();
    assertThatThrownBy(() -> p.add(file, invalid)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> p.refresh(file, invalid)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> p.remove(file, invalid)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> p.unlockAndRelock(file, invalid, "lock-1"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> p.unlockAndRelock(file, "lock-1", invalid))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(counting.total()).as("backend calls").isZero();
    assertThat(p.getLock(file)).as("nothing stored").isEmpty();
  }

  @ParameterizedTest
  @MethodSource("invalidLockIds")
  void invalidLockIdsLeaveAnExistingLockAlone(String invalid) {
    String file = newFileId();
    assertSucceeded(first().add(file, "lock-1"));
    WopiLockInfo before = lockOf(first(), file);
    passTime(aWhile());
    assertThatThrownBy(() -> second().unlockAndRelock(file, invalid, "lock-1"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> second().add(file, invalid))
        .isInstanceOf(IllegalArgumentException.class);
    WopiLockInfo after = lockOf(second(), file);
    assertThat(after.lockId()).isEqualTo("lock-1");
    assertNotExtended(before, after, aWhile());
  }

  @Test
  void invalidLockHeadersAnswer400WithoutBackendCalls() {
    CountingLockBackend counting = new CountingLockBackend(newBackend());
    WopiLockProtocol protocol =
        new WopiLockProtocol(newProvider(counting, WopiLockComparer.ordinal()));
    String file = newFileId();
    for (String invalid : List.of("", " ", "a".repeat(1025), "caf\u00e9")) {
      for (WopiLockOperation op :
          List.of(
              WopiLockOperation.LOCK, WopiLockOperation.REFRESH_LOCK, WopiLockOperation.UNLOCK)) {
        WopiLockResponse r = protocol.handle(op, file, headers(invalid, null));
        assertThat(r.status()).as("%s", op).isEqualTo(400);
        assertThat(r.failureReason()).isPresent();
      }
      assertThat(protocol.unlockAndRelock(file, "lock-1", invalid).status()).isEqualTo(400);
      assertThat(protocol.unlockAndRelock(file, invalid, "lock-1").status()).isEqualTo(400);
    }
    assertThat(protocol.handle(WopiLockOperation.LOCK, file, headers(null, null)).status())
        .isEqualTo(400);
    assertThat(counting.total()).as("backend calls").isZero();
  }

  // ------------------------------------------------------------------------------------------
  // WOPI requests: statuses and backend calls per request

  @Test
  void backendCallsPerWopiRequest() {
    CountingLockBackend counting = new CountingLockBackend(newBackend());
    WopiLockProtocol protocol =
        new WopiLockProtocol(newProvider(counting, WopiLockComparer.ordinal()));
    String file = newFileId();

    expectCalls(counting, () -> protocol.getLock(file), 200, "", Operation.READ);
    expectCalls(counting, () -> protocol.lock(file, "lock-1"), 200, null, Operation.ACQUIRE);
    expectCalls(counting, () -> protocol.lock(file, "lock-1"), 200, null, Operation.ACQUIRE);
    expectCalls(counting, () -> protocol.lock(file, "lock-2"), 409, "lock-1", Operation.ACQUIRE);
    expectCalls(counting, () -> protocol.getLock(file), 200, "lock-1", Operation.READ);
    expectCalls(counting, () -> protocol.refreshLock(file, "lock-1"), 200, null, Operation.EXTEND);
    expectCalls(
        counting, () -> protocol.refreshLock(file, "lock-2"), 409, "lock-1", Operation.EXTEND);
    expectCalls(
        counting,
        () -> protocol.unlockAndRelock(file, "lock-2", "lock-1"),
        200,
        null,
        Operation.REPLACE);
    expectCalls(
        counting,
        () -> protocol.unlockAndRelock(file, "lock-3", "lock-1"),
        409,
        "lock-2",
        Operation.REPLACE);
    expectCalls(
        counting, () -> protocol.checkPutFile(file, "lock-2", () -> 5), 200, null, Operation.READ);
    expectCalls(
        counting,
        () -> protocol.checkPutFile(file, "lock-1", () -> 5),
        409,
        "lock-2",
        Operation.READ);
    expectCalls(
        counting, () -> protocol.checkRenameFile(file, "lock-2"), 200, null, Operation.READ);
    expectCalls(
        counting, () -> protocol.checkRenameFile(file, "lock-1"), 409, "lock-2", Operation.READ);
    expectCalls(counting, () -> protocol.checkNotLocked(file), 409, "lock-2", Operation.READ);
    expectCalls(counting, () -> protocol.unlock(file, "lock-1"), 409, "lock-2", Operation.RELEASE);
    expectCalls(counting, () -> protocol.unlock(file, "lock-2"), 200, null, Operation.RELEASE);
    expectCalls(counting, () -> protocol.unlock(file, "lock-2"), 409, "", Operation.RELEASE);
    expectCalls(counting, () -> protocol.refreshLock(file, "lock-2"), 409, "", Operation.EXTEND);
    expectCalls(
        counting,
        () -> protocol.unlockAndRelock(file, "lock-3", "lock-2"),
        409,
        "",
        Operation.REPLACE);
    expectCalls(counting, () -> protocol.checkNotLocked(file), 200, null, Operation.READ);
    expectCalls(
        counting, () -> protocol.checkRenameFile(file, "lock-9"), 200, null, Operation.READ);
    expectCalls(
        counting, () -> protocol.checkPutFile(file, null, () -> 0), 200, null, Operation.READ);
    expectCalls(
        counting, () -> protocol.checkPutFile(file, null, () -> 1), 409, "", Operation.READ);
    assertThat(first().getLock(file)).as("a check never takes a lock").isEmpty();
  }

  private static void expectCalls(
      CountingLockBackend counting,
      Callable<WopiLockResponse> request,
      int status,
      String lockHeader,
      Operation... calls) {
    counting.reset();
    WopiLockResponse response;
    try {
      response = request.call();
    } catch (Exception e) {
      throw new AssertionError("the request failed", e);
    }
    assertThat(response.status()).as("status (%s)", response.failureReason()).isEqualTo(status);
    assertThat(response.lock()).isEqualTo(Optional.ofNullable(lockHeader));
    Map<Operation, Long> expected = new EnumMap<>(Operation.class);
    Map<Operation, Long> actual = new EnumMap<>(Operation.class);
    for (Operation op : Operation.values()) {
      expected.put(op, 0L);
      actual.put(op, counting.count(op));
    }
    for (Operation op : calls) {
      expected.merge(op, 1L, Long::sum);
    }
    assertThat(actual).as("backend calls").isEqualTo(expected);
  }

  private static Function<String, String> headers(String lock, String oldLock) {
    Map<String, String> h = new HashMap<>();
    if (lock != null) {
      h.put(WopiLockProtocol.LOCK_HEADER, lock);
    }
    if (oldLock != null) {
      h.put(WopiLockProtocol.OLD_LOCK_HEADER, oldLock);
    }
    return h::get;
  }

  // ------------------------------------------------------------------------------------------
  // Parallel races from real threads over two host instances

  /** Every failed result of a race names the winner's lock id (so a host answers 409 with it). */
  private static void assertEveryLoserReports(List<WopiLockResult> results, String winner) {
    for (WopiLockResult r : results) {
      if (!r.success()) {
        assertFailedWith(r, winner);
      }
    }
  }

  @Test
  void parallelAddsOfDifferentIdsHaveOneWinnerThatEveryLoserReports() {
    for (int round = 0; round < raceRounds(); round++) {
      String file = newFileId();
      List<WopiLockResult> results =
          race(i -> () -> instance(i).add(file, "client-" + i), raceThreads());
      String winner = onlyWinner(results, i -> "client-" + i);
      assertEveryLoserReports(results, winner);
      assertThat(lockOf(first(), file).lockId()).isEqualTo(winner);
    }
  }

  @Test
  void parallelRelocksOfTheSameOldIdHaveOneWinnerThatEveryLoserReports() {
    for (int round = 0; round < raceRounds(); round++) {
      String file = newFileId();
      assertSucceeded(first().add(file, "old"));
      List<WopiLockResult> results =
          race(i -> () -> instance(i).unlockAndRelock(file, "new-" + i, "old"), raceThreads());
      String winner = onlyWinner(results, i -> "new-" + i);
      assertEveryLoserReports(results, winner);
      assertThat(lockOf(second(), file).lockId()).isEqualTo(winner);
    }
  }

  @Test
  void parallelRemovesWithTheCurrentIdHaveOneWinner() {
    for (int round = 0; round < raceRounds(); round++) {
      String file = newFileId();
      assertSucceeded(first().add(file, "lock"));
      List<WopiLockResult> results =
          race(i -> () -> instance(i).remove(file, "lock"), raceThreads());
      onlyWinner(results, i -> "remover-" + i);
      for (WopiLockResult r : results) {
        if (!r.success()) {
          assertFailedUnlocked(r);
        }
      }
      assertThat(first().getLock(file)).isEmpty();
    }
  }

  @Test
  void parallelRefreshesNeverUndoARelock() {
    for (int round = 0; round < raceRounds(); round++) {
      String file = newFileId();
      assertSucceeded(first().add(file, "old"));
      List<WopiLockResult> results =
          race(
              i ->
                  () ->
                      i == 0
                          ? instance(i).unlockAndRelock(file, "new", "old")
                          : instance(i).refresh(file, "old"),
              raceThreads());
      assertSucceeded(results.get(0));
      for (WopiLockResult r : results.subList(1, results.size())) {
        if (!r.success()) {
          assertFailedWith(r, "new");
        }
      }
      assertThat(lockOf(second(), file).lockId()).isEqualTo("new");
    }
  }

  @Test
  void parallelAddsRacingARemoveLetAtMostOneNewHolderIn() {
    for (int round = 0; round < raceRounds(); round++) {
      String file = newFileId();
      assertSucceeded(first().add(file, "old"));
      List<WopiLockResult> results =
          race(
              i ->
                  () ->
                      i == 0 ? instance(i).remove(file, "old") : instance(i).add(file, "new-" + i),
              raceThreads());
      assertSucceeded(results.get(0));
      List<String> winners = new ArrayList<>();
      for (int i = 1; i < results.size(); i++) {
        if (results.get(i).success()) {
          winners.add("new-" + i);
        }
      }
      assertThat(winners).as("adders that got the lock").hasSizeLessThanOrEqualTo(1);
      Optional<WopiLockInfo> end = first().getLock(file);
      assertThat(end.map(WopiLockInfo::lockId))
          .isEqualTo(winners.isEmpty() ? Optional.empty() : Optional.of(winners.get(0)));
      for (int i = 1; i < results.size(); i++) {
        WopiLockResult r = results.get(i);
        if (!r.success()) {
          assertThat(r.currentLock()).as("a failed add met a lock").isPresent();
          assertThat(r.currentLockIdOrEmpty()).isIn(withWinners("old", winners));
        }
      }
    }
  }

  private static List<String> withWinners(String first, List<String> winners) {
    List<String> all = new ArrayList<>(winners);
    all.add(first);
    return all;
  }

  /**
   * Clients loop over add, refresh, relock and remove on one file from real threads, through two
   * host instances. Every hold is recorded as an interval (from seeing the add succeed to just
   * before sending the remove) and a plain read-modify-write counter is bumped inside it; the
   * history check then requires that no two holds overlap and no increment was lost, that every
   * holder's own refresh, relock and remove succeeded, and that every failure reported a lock of
   * another client.
   */
  @Test
  void mixedParallelClientsNeverHoldTogetherAndNeverLoseAnUpdate() {
    String file = newFileId();
    int threads = raceThreads();
    int iterations = raceRounds() * 5;
    AtomicInteger counter = new AtomicInteger();
    ConcurrentLinkedQueue<long[]> holds = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    race(
        t ->
            () -> {
              String idA = "client-" + t + "-a";
              String idB = "client-" + t + "-b";
              for (int n = 0; n < iterations; n++) {
                WopiLockProvider mine = instance(t + n);
                WopiLockProvider other = instance(t + n + 1);
                WopiLockResult added = mine.add(file, idA);
                if (!added.success()) {
                  checkOthersLock("add", t, added, violations);
                  checkOthersLock("refresh", t, other.refresh(file, idA), violations);
                  checkOthersLock("relock", t, mine.unlockAndRelock(file, idB, idA), violations);
                  checkOthersLock("remove", t, other.remove(file, idA), violations);
                  continue;
                }
                long enter = System.nanoTime();
                int v = counter.get();
                widenTheRaceWindow();
                counter.set(v + 1);
                expectSuccess("refresh", t, other.refresh(file, idA), violations);
                expectSuccess("relock", t, mine.unlockAndRelock(file, idB, idA), violations);
                Optional<String> seen = other.getLock(file).map(WopiLockInfo::lockId);
                if (!seen.equals(Optional.of(idB))) {
                  violations.add("client " + t + " holds " + idB + " but getLock saw " + seen);
                }
                v = counter.get();
                widenTheRaceWindow();
                counter.set(v + 1);
                long exit = System.nanoTime();
                holds.add(new long[] {enter, exit, t});
                expectSuccess("remove", t, other.remove(file, idB), violations);
              }
              return WopiLockResult.succeeded();
            },
        threads);
    assertThat(violations).as("violations").isEmpty();
    List<long[]> sorted = new ArrayList<>(holds);
    sorted.sort(Comparator.comparingLong(h -> h[0]));
    for (int i = 1; i < sorted.size(); i++) {
      long[] prev = sorted.get(i - 1);
      long[] next = sorted.get(i);
      assertThat(next[0])
          .as("client %d entered while client %d still held the lock", next[2], prev[2])
          .isGreaterThan(prev[1]);
    }
    assertThat(holds).as("holds").isNotEmpty();
    assertThat(counter.get()).as("lost updates").isEqualTo(2 * holds.size());
    assertThat(first().getLock(file)).isEmpty();
  }

  /**
   * {@link #raceThreads()} clients send random LOCK, GET_LOCK, REFRESH_LOCK, UNLOCK and
   * UnlockAndRelock requests with a few shared lock ids on one file, each request through the next
   * of three host instances (each with its own backend client); the recorded history of statuses
   * and {@code X-WOPI-Lock} answers must be linearizable against the sequential WOPI lock model
   * ({@link WopiLinearizabilityChecker}). A 409 that reports a lock other than the one current when
   * the store decided fails here. The providers use a long expiry: the model has no expiry.
   */
  @Test
  void requestsFromSeveralInstancesAreLinearizable() {
    String file = newFileId();
    List<WopiLockProtocol> instances = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      instances.add(
          new WopiLockProtocol(
              WopiLockProvider.builder(newBackend())
                  .expiry(Duration.ofMinutes(30))
                  .clock(clock())
                  .keyPrefix(keyPrefix)
                  .build()));
    }
    long seed = System.nanoTime();
    WopiHistory history = new WopiHistory();
    race(
        c ->
            () -> {
              java.util.Random random = new java.util.Random(seed + c);
              for (int n = 0; n < linearizabilityRequestsPerClient(); n++) {
                WopiLockProtocol instance = instances.get((c + n) % instances.size());
                WopiHistory.Request request = WopiHistory.Request.random(random);
                WopiHistory.Call call = history.invoke(c, file, request);
                try {
                  WopiLockResponse r = send(instance, file, request);
                  call.completed(r.status(), r.lock().orElse(null));
                } catch (WopiLockUnavailableException e) {
                  call.unknown(); // may have taken effect: the checker allows both
                }
              }
              return null;
            },
        raceThreads());
    WopiLinearizabilityChecker.Result result = WopiLinearizabilityChecker.check(history.ops());
    assertThat(result.verdict())
        .as("seed %d: %s", seed, result.explanation())
        .isEqualTo(WopiLinearizabilityChecker.Verdict.LINEARIZABLE);
    assertThat(result.ops()).isEqualTo(raceThreads() * linearizabilityRequestsPerClient());
  }

  private static WopiLockResponse send(WopiLockProtocol p, String file, WopiHistory.Request r) {
    return switch (r.kind()) {
      case LOCK -> p.lock(file, r.lock());
      case GET_LOCK -> p.getLock(file);
      case REFRESH_LOCK -> p.refreshLock(file, r.lock());
      case UNLOCK -> p.unlock(file, r.lock());
      case UNLOCK_AND_RELOCK -> p.unlockAndRelock(file, r.lock(), r.oldLock());
    };
  }

  /** A pause between a read and its write, so overlapping holders would interleave there. */
  private static void widenTheRaceWindow() {
    LockSupport.parkNanos(20_000);
  }

  private static void checkOthersLock(
      String op, int client, WopiLockResult r, ConcurrentLinkedQueue<String> violations) {
    if (r.success()) {
      violations.add("client " + client + ": " + op + " succeeded while another client held");
    } else if (r.currentLock().isPresent() && isOwn(client, r.currentLockIdOrEmpty())) {
      violations.add("client " + client + ": " + op + " failed reporting its own lock");
    } else if (op.equals("add") && r.currentLock().isEmpty()) {
      violations.add("client " + client + ": add failed on an unlocked file");
    }
  }

  private static boolean isOwn(int client, String lockId) {
    return lockId.startsWith("client-" + client + "-");
  }

  private static void expectSuccess(
      String op, int client, WopiLockResult r, ConcurrentLinkedQueue<String> violations) {
    if (!r.success()) {
      violations.add(
          "client "
              + client
              + " lost its lock: "
              + op
              + " failed, current "
              + r.currentLock().map(WopiLockInfo::lockId));
    }
  }

  /** Host instance {@code i % 2}: racing threads alternate between the two instances. */
  private WopiLockProvider instance(int i) {
    return i % 2 == 0 ? first() : second();
  }

  /** The lock id of the single successful result, failing unless exactly one succeeded. */
  private static String onlyWinner(List<WopiLockResult> results, Function<Integer, String> name) {
    List<String> winners = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      if (results.get(i).success()) {
        winners.add(name.apply(i));
      }
    }
    assertThat(winners).as("winners").hasSize(1);
    return winners.get(0);
  }

  /**
   * Runs {@code threads} tasks on real threads released together, and returns their results in task
   * order; fails on any exception or when they take longer than 60 s (scaled).
   */
  private <T> List<T> race(Function<Integer, Callable<T>> task, int threads) {
    // make the lazy instances before the threads race to create them
    first();
    second();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch ready = new CountDownLatch(threads);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        Callable<T> c = task.apply(i);
        futures.add(
            pool.submit(
                () -> {
                  ready.countDown();
                  go.await();
                  return c.call();
                }));
      }
      ready.await();
      go.countDown();
      long deadline = System.nanoTime() + TestTiming.scaled(Duration.ofSeconds(60)).toNanos();
      List<T> results = new ArrayList<>();
      for (Future<T> f : futures) {
        results.add(f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
      }
      return results;
    } catch (ExecutionException e) {
      throw new AssertionError("a racing task failed", e.getCause());
    } catch (TimeoutException e) {
      throw new AssertionError("racing tasks did not finish in time", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    } finally {
      pool.shutdownNow();
    }
  }
}
