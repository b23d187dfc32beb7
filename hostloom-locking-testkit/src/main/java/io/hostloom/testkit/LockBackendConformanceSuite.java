package io.hostloom.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.locking.spi.support.SpiLimits;
import io.hostloom.locking.testing.ManualLockClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The backend contract of {@link LockBackend}, as one JUnit 5 suite that every backend passes by
 * subclassing it and supplying {@link #newBackend()}:
 *
 * <pre>{@code
 * class RedisLockBackendConformanceTest extends LockBackendConformanceSuite {
 *   @RegisterExtension static final RedisServerExtension REDIS = new RedisServerExtension();
 *
 *   @Override protected LockBackend newBackend() {
 *     return RedisLockBackend.create(REDIS.uri()); // a new client: "another service instance"
 *   }
 * }
 * }</pre>
 *
 * <p>Tests are grouped by operation in {@link Nested} classes. Every test uses its own random keys,
 * so the suite may run against a server that keeps data between tests (or runs several suites).
 * Backends whose clock is real time keep the default {@link #passTime}, a bounded real wait; the
 * in-memory backend overrides it to advance a {@link ManualLockClock}. Expiry is then confirmed by
 * polling {@link LockBackend#read} for at most {@link #expiryGrace()} (scaled by {@link
 * TestTiming}), so a server whose clock resolution is coarse still passes without sleeping a
 * guessed amount.
 *
 * <p><b>Instances.</b> {@link #newBackend()} is called once before each test ({@link #backend}) and
 * again whenever a test needs "another service instance": each call must return an independent
 * client over the same shared server. Every instance is passed to {@link #closeBackend} after the
 * test.
 *
 * <p><b>Argument checks.</b> Invalid arguments (empty key or owner, null, zero or negative lease)
 * must be rejected with {@link IllegalArgumentException} or {@link NullPointerException}, thrown or
 * as the failure of the returned future; both are accepted.
 */
public abstract class LockBackendConformanceSuite {
  private final List<LockBackend> instances = new ArrayList<>();

  /** The instance most tests use; a fresh {@link #newBackend()} before each test. */
  protected LockBackend backend;

  /**
   * A new, independent client of the backend under test, over the same shared server (another
   * service instance). Called before each test and whenever a test needs another instance.
   */
  protected abstract LockBackend newBackend();

  /**
   * A lease short enough to wait out in a test (the backend's minimum or more). Default 200 ms.
   * Backends with coarse lease resolution override it.
   */
  protected Duration shortLease() {
    return Duration.ofMillis(200);
  }

  /** A lease that never runs out during a test. Default 60 s; keep it a whole number of seconds. */
  protected Duration longLease() {
    return Duration.ofSeconds(60);
  }

  /**
   * Lets {@code duration} pass on the backend's clock. Default: a real wait of exactly {@code
   * duration} ({@link TestTiming#pass}); a backend on a {@link ManualLockClock} advances the clock.
   */
  protected void passTime(Duration duration) {
    TestTiming.pass(duration);
  }

  /**
   * How long, after {@link #passTime} let a lease pass, the backend may still report the lease
   * (clock resolution, lazy expiry), before the suite calls it a failure. Scaled by {@link
   * TestTiming}. Default 2 s.
   */
  protected Duration expiryGrace() {
    return Duration.ofSeconds(2);
  }

  /** How long the suite waits for one backend call. Scaled by {@link TestTiming}. Default 10 s. */
  protected Duration callTimeout() {
    return Duration.ofSeconds(10);
  }

  /**
   * Whether grants carry strictly increasing fencing tokens; default {@code true}. A backend
   * configured without them (every grant reports the same positive token) answers {@code false}:
   * the suite then checks that a new grant's token is positive, and skips {@link FencingTokens}.
   */
  protected boolean fencingTokensIncrease() {
    return true;
  }

  /** A new grant's token against an earlier grant's (see {@link #fencingTokensIncrease()}). */
  protected final void assertNewerToken(long later, long earlier) {
    if (fencingTokensIncrease()) {
      assertThat(later).as("a new grant's fencing token").isGreaterThan(earlier);
    } else {
      assertThat(later).as("a new grant's fencing token").isPositive();
    }
  }

  /** Threads in the contention tests (spread over two instances). Default 8. */
  protected int contentionThreads() {
    return 8;
  }

  /** Grants each contention thread must obtain. Default 25. */
  protected int contentionRoundsPerThread() {
    return 25;
  }

  /**
   * Closes an instance made by {@link #newBackend()}. Default: closes it if {@link AutoCloseable}.
   */
  protected void closeBackend(LockBackend instance) throws Exception {
    Closing.ifCloseable(instance);
  }

  @BeforeEach
  final void createConformanceBackend() {
    backend = anotherInstance();
  }

  @AfterEach
  final void closeConformanceBackends() throws Exception {
    Closing.all(instances, this::closeBackend);
  }

  // ---------------------------------------------------------------- helpers for tests

  /** Another independent instance over the same server, closed after the test. */
  protected final LockBackend anotherInstance() {
    LockBackend instance = newBackend();
    assertThat(instance).as("newBackend()").isNotNull();
    instances.add(instance);
    return instance;
  }

  /** A key unique to this call: {@code "hl-conformance:<uuid>:" + label}. */
  protected static String key(String label) {
    return "hl-conformance:" + UUID.randomUUID() + ":" + label;
  }

  /** An owner unique to this call. */
  protected static String owner(String label) {
    return label + "-" + UUID.randomUUID();
  }

  protected final AcquireOutcome acquire(
      LockBackend b, String key, String owner, String data, Duration lease) {
    return TestTiming.get(b.acquire(key, owner, data, lease), callTimeout());
  }

  protected final ExtendOutcome extend(LockBackend b, String key, String owner, Duration lease) {
    return TestTiming.get(b.extend(key, owner, lease), callTimeout());
  }

  protected final ReleaseOutcome release(LockBackend b, String key, String owner) {
    return TestTiming.get(b.release(key, owner), callTimeout());
  }

  /** The holder a refused extend reported; fails when it was extended or reported absent. */
  protected static LeaseRecord refusedBy(ExtendOutcome o) {
    assertThat(o.extended()).as("extended").isFalse();
    return o.holder().orElseThrow(() -> new AssertionError("refused extend named no holder"));
  }

  /** The holder a refused release reported; fails when it was released or reported absent. */
  protected static LeaseRecord refusedBy(ReleaseOutcome o) {
    assertThat(o.released()).as("released").isFalse();
    return o.holder().orElseThrow(() -> new AssertionError("refused release named no holder"));
  }

  protected final ReplaceOutcome replace(
      LockBackend b, String key, String expected, String newOwner, String newData, Duration lease) {
    return TestTiming.get(b.replace(key, expected, newOwner, newData, lease), callTimeout());
  }

  protected final Optional<LeaseRecord> read(LockBackend b, String key) {
    return TestTiming.get(b.read(key), callTimeout());
  }

  /** Acquires a free key and returns the grant's fencing token. */
  protected final long grant(LockBackend b, String key, String owner, String data, Duration lease) {
    AcquireOutcome o = acquire(b, key, owner, data, lease);
    assertThat(o.granted()).as("acquire of a free key is granted").isTrue();
    assertThat(o.fencingToken()).as("a grant's fencing token").isPositive();
    assertThat(o.holder()).isEmpty();
    return o.fencingToken();
  }

  /**
   * Lets {@code lease} pass, then polls until the backend no longer reports a lease on {@code key}.
   */
  protected final void awaitExpiry(LockBackend b, String key, Duration lease) {
    passTime(lease);
    TestTiming.await(
        "a lease of " + lease + " has expired", () -> read(b, key).isEmpty(), expiryGrace());
  }

  private static void assertRecord(
      LeaseRecord r, String owner, String data, long token, Duration lease) {
    assertThat(r.owner()).as("owner").isEqualTo(owner);
    assertThat(r.data()).as("data").isEqualTo(data);
    assertThat(r.fencingToken()).as("fencing token").isEqualTo(token);
    assertThat(r.remaining()).as("remaining").isPositive().isLessThanOrEqualTo(lease);
  }

  // ---------------------------------------------------------------- argument sources

  static Stream<Arguments> exoticKeys() {
    return Stream.of(
        Arguments.of(Named.of("colons and slashes", "tenant:42/files/doc.docx:lock")),
        Arguments.of(Named.of("spaces and a tab", "  a key with  spaces\tand a tab  ")),
        Arguments.of(Named.of("unicode", "Ünïcödé ключ 日本語 🔒 \u00e9e\u0301")),
        Arguments.of(Named.of("redis hash tag and globs", "{tag}*?[abc]")),
        Arguments.of(Named.of("path traversal", "../..%2F..\\windows%5Csystem32")),
        Arguments.of(Named.of("quotes and backslashes", "it's \"quoted\" \\ and `ticked`")),
        Arguments.of(Named.of("sql and lua punctuation", "'; DROP TABLE locks; -- ]] nil")),
        Arguments.of(Named.of("1500 chars", "long:" + "ä€x/:".repeat(300))));
  }

  static Stream<Arguments> dataValues() {
    StringBuilder max = new StringBuilder();
    int[] pattern = "{\"é\":\"🔒\\n\"}, ".codePoints().toArray();
    for (int i = 0; max.length() + 2 <= SpiLimits.MAX_DATA_LENGTH; i++) {
      max.appendCodePoint(pattern[i % pattern.length]); // whole code points: no lone surrogate
    }
    while (max.length() < SpiLimits.MAX_DATA_LENGTH) {
      max.append('!'); // exactly the limit in UTF-16 units, more UTF-8 bytes
    }
    return Stream.of(
        Arguments.of(Named.of("empty", "")),
        Arguments.of(Named.of("json", "{\"lockId\":\"abc\",\"n\":[1,true,null]}")),
        Arguments.of(Named.of("quotes", "he said \"hi\" and 'bye' \\ back\\\\slash")),
        Arguments.of(Named.of("unicode", "Ünïcödé — 日本語 — 🔒 — \u0001\u007f — \u202e")),
        Arguments.of(Named.of("whitespace", "  \t\r\n  ")),
        Arguments.of(Named.of("words engines treat specially", "nil")),
        Arguments.of(Named.of("null", "null")),
        Arguments.of(Named.of("false", "false")),
        Arguments.of(Named.of("2048 chars", max.toString())));
  }

  static Stream<Arguments> invalidCalls() {
    Duration lease = Duration.ofSeconds(10);
    return Stream.of(
        call("acquire: empty key", b -> b.acquire("", "o", "", lease)),
        call("acquire: empty owner", b -> b.acquire(key("x"), "", "", lease)),
        call("acquire: null key", b -> b.acquire(null, "o", "", lease)),
        call("acquire: null owner", b -> b.acquire(key("x"), null, "", lease)),
        call("acquire: null data", b -> b.acquire(key("x"), "o", null, lease)),
        call("acquire: null lease", b -> b.acquire(key("x"), "o", "", null)),
        call("acquire: zero lease", b -> b.acquire(key("x"), "o", "", Duration.ZERO)),
        call("acquire: negative lease", b -> b.acquire(key("x"), "o", "", Duration.ofMillis(-1))),
        call("extend: empty key", b -> b.extend("", "o", lease)),
        call("extend: empty owner", b -> b.extend(key("x"), "", lease)),
        call("extend: null lease", b -> b.extend(key("x"), "o", null)),
        call("extend: zero lease", b -> b.extend(key("x"), "o", Duration.ZERO)),
        call("extend: negative lease", b -> b.extend(key("x"), "o", Duration.ofSeconds(-5))),
        call("release: empty key", b -> b.release("", "o")),
        call("release: empty owner", b -> b.release(key("x"), "")),
        call("release: null owner", b -> b.release(key("x"), null)),
        call("replace: empty key", b -> b.replace("", "o", "n", "", lease)),
        call("replace: empty expected owner", b -> b.replace(key("x"), "", "n", "", lease)),
        call("replace: empty new owner", b -> b.replace(key("x"), "o", "", "", lease)),
        call("replace: null new data", b -> b.replace(key("x"), "o", "n", null, lease)),
        call("replace: zero lease", b -> b.replace(key("x"), "o", "n", "", Duration.ZERO)),
        call("replace: negative lease", b -> b.replace(key("x"), "o", "n", "", lease.negated())),
        call("read: null key", b -> b.read(null)));
  }

  private static Arguments call(String name, Function<LockBackend, CompletableFuture<?>> call) {
    return Arguments.of(Named.of(name, call));
  }

  // ---------------------------------------------------------------- the contract

  /** {@link LockBackend#acquire}. */
  @Nested
  public class Acquire {
    @Test
    void grantsAFreeKeyWithAPositiveToken() {
      String key = key("free");
      AcquireOutcome o = acquire(backend, key, owner("a"), "d", longLease());
      assertThat(o.granted()).isTrue();
      assertThat(o.fencingToken()).isPositive();
      assertThat(o.holder()).isEmpty();
    }

    @Test
    void refusesAHeldKeyAndReportsTheHolder() {
      String key = key("held");
      String a = owner("a");
      long token = grant(backend, key, a, "lock-id-A", longLease());

      AcquireOutcome o = acquire(backend, key, owner("b"), "lock-id-B", longLease());

      assertThat(o.granted()).isFalse();
      assertThat(o.fencingToken()).isZero();
      assertThat(o.holder()).isPresent();
      assertRecord(o.holder().orElseThrow(), a, "lock-id-A", token, longLease());
    }

    @Test
    void anotherInstanceSeesTheGrant() {
      String key = key("shared");
      String a = owner("a");
      long token = grant(backend, key, a, "from-1", longLease());
      LockBackend other = anotherInstance();

      AcquireOutcome o = acquire(other, key, owner("b"), "from-2", longLease());

      assertThat(o.granted()).isFalse();
      assertRecord(o.holder().orElseThrow(), a, "from-1", token, longLease());
      assertRecord(read(other, key).orElseThrow(), a, "from-1", token, longLease());
    }

    @Test
    void sameOwnerKeepsTokenAndDataAndResetsExpiry() {
      String key = key("again");
      String a = owner("a");
      long token = grant(backend, key, a, "first", longLease());
      Duration longer = longLease().multipliedBy(2);

      AcquireOutcome again = acquire(backend, key, a, "second", longer);

      assertThat(again.granted()).isTrue();
      assertThat(again.fencingToken()).isEqualTo(token);
      LeaseRecord r = read(backend, key).orElseThrow();
      assertRecord(r, a, "first", token, longer);
      assertThat(r.remaining())
          .as("expiry reset to now + the new lease")
          .isGreaterThan(longLease());
    }

    @Test
    void sameOwnerFromAnotherInstanceIsTheSameGrant() {
      String key = key("retried");
      String a = owner("a");
      long token = grant(backend, key, a, "d", longLease());

      AcquireOutcome retried = acquire(anotherInstance(), key, a, "d", longLease());

      assertThat(retried.granted()).isTrue();
      assertThat(retried.fencingToken()).isEqualTo(token);
    }

    @Test
    void ownersAreComparedExactly() {
      String key = key("exact");
      String a = "Owner-é-" + UUID.randomUUID();
      long token = grant(backend, key, a, "d", longLease());
      String decomposed = a.replace("\u00e9", "e\u0301");
      for (String look :
          List.of(a.toLowerCase(java.util.Locale.ROOT), a + " ", " " + a, decomposed)) {
        AcquireOutcome o = acquire(backend, key, look, "x", longLease());
        assertThat(o.granted()).as("acquire by look-alike owner '%s'", look).isFalse();
        assertRecord(
            refusedBy(extend(backend, key, look, longLease())), a, "d", token, longLease());
        assertRecord(refusedBy(release(backend, key, look)), a, "d", token, longLease());
      }
      assertRecord(read(backend, key).orElseThrow(), a, "d", token, longLease());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.hostloom.testkit.LockBackendConformanceSuite#exoticKeys")
    void exoticKeysWork(String label) {
      String key = key(label);
      String a = owner("a");
      long token = grant(backend, key, a, "d", longLease());
      LockBackend other = anotherInstance();
      assertThat(acquire(other, key, owner("b"), "", longLease()).granted()).isFalse();
      assertRecord(read(other, key).orElseThrow(), a, "d", token, longLease());
      assertThat(extend(other, key, a, longLease()).extended()).isTrue();
      assertThat(release(other, key, a).released()).isTrue();
      assertThat(read(backend, key)).isEmpty();
    }

    @Test
    void similarKeysAreDistinct() {
      String base = "hl-conformance:" + UUID.randomUUID() + ":";
      List<String> keys =
          List.of(
              base + "Key",
              base + "key",
              base + "key ",
              base + "key\u00e9",
              base + "keye\u0301",
              base + "key:",
              base + "ke",
              base + "key/");
      List<Long> tokens = new ArrayList<>();
      for (int i = 0; i < keys.size(); i++) {
        tokens.add(grant(backend, keys.get(i), "owner-" + i, "data-" + i, longLease()));
      }
      for (int i = 0; i < keys.size(); i++) {
        assertRecord(
            read(backend, keys.get(i)).orElseThrow(),
            "owner-" + i,
            "data-" + i,
            tokens.get(i),
            longLease());
      }
    }
  }

  /** {@link LockBackend#extend}. */
  @Nested
  public class Extend {
    @Test
    void ownerExtendsToNowPlusTheNewLease() {
      String key = key("extend");
      String a = owner("a");
      long token = grant(backend, key, a, "d", longLease());
      Duration longer = longLease().multipliedBy(2);

      assertThat(extend(backend, key, a, longer).extended()).isTrue();

      LeaseRecord r = read(backend, key).orElseThrow();
      assertRecord(r, a, "d", token, longer);
      assertThat(r.remaining()).isGreaterThan(longLease());
    }

    @Test
    void anotherInstanceOfTheOwnerMayExtend() {
      String key = key("extend-elsewhere");
      String a = owner("a");
      grant(backend, key, a, "d", longLease());
      assertThat(extend(anotherInstance(), key, a, longLease()).extended()).isTrue();
    }

    @Test
    void wrongOwnerCannotExtend() {
      String key = key("extend-other");
      String a = owner("a");
      long token = grant(backend, key, a, "d", longLease());

      ExtendOutcome o = extend(anotherInstance(), key, owner("b"), longLease().multipliedBy(2));

      assertRecord(refusedBy(o), a, "d", token, longLease());
      assertRecord(read(backend, key).orElseThrow(), a, "d", token, longLease());
    }

    @Test
    void absentKeyCannotBeExtendedAndStaysFree() {
      String key = key("extend-absent");
      assertThat(extend(backend, key, owner("a"), longLease())).isEqualTo(ExtendOutcome.absent());
      assertThat(read(backend, key)).isEmpty();
    }
  }

  /** {@link LockBackend#release}. */
  @Nested
  public class Release {
    @Test
    void ownerReleasesAndTheKeyIsFree() {
      String key = key("release");
      String a = owner("a");
      long token = grant(backend, key, a, "d", longLease());

      assertThat(release(backend, key, a).released()).isTrue();

      assertThat(read(backend, key)).isEmpty();
      assertNewerToken(grant(anotherInstance(), key, owner("b"), "", longLease()), token);
    }

    @Test
    void wrongOwnerCannotRelease() {
      String key = key("release-other");
      String a = owner("a");
      long token = grant(backend, key, a, "d", longLease());

      ReleaseOutcome o = release(anotherInstance(), key, owner("b"));

      assertRecord(refusedBy(o), a, "d", token, longLease());
      assertRecord(read(backend, key).orElseThrow(), a, "d", token, longLease());
    }

    @Test
    void absentKeyReleaseIsFalse() {
      assertThat(release(backend, key("release-absent"), owner("a")))
          .isEqualTo(ReleaseOutcome.absent());
    }

    @Test
    void secondReleaseIsFalse() {
      String key = key("release-twice");
      String a = owner("a");
      grant(backend, key, a, "d", longLease());
      assertThat(release(backend, key, a).released()).isTrue();
      assertThat(release(backend, key, a)).isEqualTo(ReleaseOutcome.absent());
    }
  }

  /** {@link LockBackend#replace}. */
  @Nested
  public class Replace {
    @Test
    void expectedOwnerIsSwappedWithNewDataAndANewToken() {
      String key = key("replace");
      String a = owner("a");
      String b = owner("b");
      long token = grant(backend, key, a, "old", longLease());
      Duration longer = longLease().multipliedBy(2);

      ReplaceOutcome o = replace(anotherInstance(), key, a, b, "new", longer);

      assertThat(o.replaced()).isTrue();
      assertNewerToken(o.fencingToken(), token);
      assertThat(o.current()).isEmpty();
      LeaseRecord r = read(backend, key).orElseThrow();
      assertRecord(r, b, "new", o.fencingToken(), longer);
      assertThat(r.remaining()).as("expiry is now + the new lease").isGreaterThan(longLease());
      assertRecord(
          refusedBy(extend(backend, key, a, longLease())), b, "new", o.fencingToken(), longer);
      assertRecord(refusedBy(release(backend, key, a)), b, "new", o.fencingToken(), longer);
      assertThat(release(backend, key, b).released()).as("new owner releases").isTrue();
    }

    @Test
    void wrongExpectedOwnerGetsTheCurrentRecordAndChangesNothing() {
      String key = key("replace-mismatch");
      String a = owner("a");
      long token = grant(backend, key, a, "current", longLease());

      ReplaceOutcome o = replace(backend, key, owner("x"), owner("b"), "new", longLease());

      assertThat(o.replaced()).isFalse();
      assertThat(o.fencingToken()).isZero();
      assertRecord(o.current().orElseThrow(), a, "current", token, longLease());
      assertRecord(read(backend, key).orElseThrow(), a, "current", token, longLease());
    }

    @Test
    void absentKeyIsReportedAbsentAndStaysFree() {
      String key = key("replace-absent");
      ReplaceOutcome o = replace(backend, key, owner("a"), owner("b"), "new", longLease());
      assertThat(o.replaced()).isFalse();
      assertThat(o.current()).isEmpty();
      assertThat(read(backend, key)).isEmpty();
    }

    @Test
    void ownerMayReplaceItself() {
      String key = key("replace-self");
      String a = owner("a");
      long token = grant(backend, key, a, "v1", longLease());

      ReplaceOutcome o = replace(backend, key, a, a, "v2", longLease());

      assertThat(o.replaced()).isTrue();
      assertNewerToken(o.fencingToken(), token);
      assertRecord(read(backend, key).orElseThrow(), a, "v2", o.fencingToken(), longLease());
    }
  }

  /** {@link LockBackend#read}. */
  @Nested
  public class Read {
    @Test
    void freeKeyReadsEmpty() {
      assertThat(read(backend, key("never-used"))).isEmpty();
    }

    @Test
    void returnsOwnerDataRemainingAndToken() {
      String key = key("read");
      String a = owner("a");
      long token = grant(backend, key, a, "lock-id", longLease());
      assertRecord(read(backend, key).orElseThrow(), a, "lock-id", token, longLease());
      assertRecord(read(anotherInstance(), key).orElseThrow(), a, "lock-id", token, longLease());
    }

    @Test
    void readChangesNothing() {
      String key = key("read-only");
      String a = owner("a");
      long token = grant(backend, key, a, "d", longLease());
      for (int i = 0; i < 3; i++) {
        read(backend, key);
      }
      assertThat(release(backend, key, a).released()).isTrue();
      assertNewerToken(grant(backend, key, a, "d", longLease()), token);
    }
  }

  /** Leases run out on the backend's clock. */
  @Nested
  public class Expiry {
    @Test
    void anExpiredLeaseFreesTheKey() {
      String key = key("expire");
      long token = grant(backend, key, owner("a"), "d", shortLease());

      awaitExpiry(backend, key, shortLease());

      String b = owner("b");
      AcquireOutcome o = acquire(anotherInstance(), key, b, "new", longLease());
      assertThat(o.granted()).isTrue();
      assertNewerToken(o.fencingToken(), token);
      assertRecord(read(backend, key).orElseThrow(), b, "new", o.fencingToken(), longLease());
    }

    @Test
    void anExpiredLeaseCannotBeExtendedReleasedOrReplaced() {
      String key = key("expired-ops");
      String a = owner("a");
      grant(backend, key, a, "d", shortLease());

      awaitExpiry(backend, key, shortLease());

      assertThat(extend(backend, key, a, longLease()))
          .as("extend")
          .isEqualTo(ExtendOutcome.absent());
      assertThat(release(backend, key, a)).as("release").isEqualTo(ReleaseOutcome.absent());
      ReplaceOutcome o = replace(backend, key, a, owner("b"), "new", longLease());
      assertThat(o.replaced()).as("replace").isFalse();
      assertThat(o.current()).as("replace reports absent").isEmpty();
      assertThat(read(backend, key)).isEmpty();
    }

    @Test
    void extendCanShortenTheLease() {
      String key = key("shorten");
      String a = owner("a");
      grant(backend, key, a, "d", longLease());

      assertThat(extend(backend, key, a, shortLease()).extended()).isTrue();

      awaitExpiry(backend, key, shortLease());
    }

    @Test
    void theOwnerReacquiringAnExpiredLeaseGetsANewGrant() {
      String key = key("reacquire");
      String a = owner("a");
      long token = grant(backend, key, a, "old", shortLease());
      awaitExpiry(backend, key, shortLease());

      AcquireOutcome o = acquire(backend, key, a, "new", longLease());

      assertThat(o.granted()).isTrue();
      assertNewerToken(o.fencingToken(), token);
      assertRecord(read(backend, key).orElseThrow(), a, "new", o.fencingToken(), longLease());
    }

    @Test
    void aStaleOwnerNeverRemovesItsSuccessor() {
      String key = key("stale");
      String a = owner("a");
      LockBackend instanceA = backend;
      LockBackend instanceB = anotherInstance();
      long tokenA = grant(instanceA, key, a, "a", shortLease());
      awaitExpiry(instanceB, key, shortLease());
      String b = owner("b");
      long tokenB = grant(instanceB, key, b, "b", longLease());
      assertNewerToken(tokenB, tokenA);

      assertRecord(refusedBy(release(instanceA, key, a)), b, "b", tokenB, longLease());
      assertRecord(refusedBy(extend(instanceA, key, a, longLease())), b, "b", tokenB, longLease());
      ReplaceOutcome r = replace(instanceA, key, a, owner("c"), "c", longLease());
      assertThat(r.replaced()).as("stale replace").isFalse();
      assertRecord(r.current().orElseThrow(), b, "b", tokenB, longLease());
      AcquireOutcome again = acquire(instanceA, key, a, "a", longLease());
      assertThat(again.granted()).as("stale re-acquire").isFalse();
      assertRecord(again.holder().orElseThrow(), b, "b", tokenB, longLease());

      assertRecord(read(instanceA, key).orElseThrow(), b, "b", tokenB, longLease());
      assertThat(release(instanceB, key, b).released()).isTrue();
    }
  }

  /** Fencing tokens strictly increase per key. */
  @Nested
  public class FencingTokens {
    @BeforeEach
    void onlyWithIncreasingTokens() {
      Assumptions.assumeTrue(fencingTokensIncrease(), "the backend is configured without tokens");
    }

    @Test
    void increaseAcrossReleaseExpiryAndReplace() {
      String key = key("fencing");
      LockBackend other = anotherInstance();
      String a = owner("a");
      String b = owner("b");
      long t1 = grant(backend, key, a, "", longLease());
      assertThat(release(backend, key, a).released()).isTrue();
      long t2 = grant(other, key, b, "", shortLease());
      assertThat(t2).as("after release").isGreaterThan(t1);
      awaitExpiry(backend, key, shortLease());
      long t3 = grant(backend, key, a, "", longLease());
      assertThat(t3).as("after expiry").isGreaterThan(t2);
      ReplaceOutcome r = replace(other, key, a, b, "", longLease());
      assertThat(r.replaced()).isTrue();
      assertThat(r.fencingToken()).as("after replace").isGreaterThan(t3);
      assertThat(read(backend, key).orElseThrow().fencingToken()).isEqualTo(r.fencingToken());
    }

    @Test
    void increaseOverManyGrantsFromTwoInstances() {
      String key = key("fencing-many");
      LockBackend[] both = {backend, anotherInstance()};
      long last = 0;
      for (int i = 0; i < 20; i++) {
        String o = owner("o" + i);
        long t = grant(both[i % 2], key, o, "", longLease());
        assertThat(t).as("grant %d", i).isGreaterThan(last);
        last = t;
        assertThat(release(both[(i + 1) % 2], key, o).released()).isTrue();
      }
    }
  }

  /** Data is opaque and round-trips exactly. */
  @Nested
  public class Data {
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.hostloom.testkit.LockBackendConformanceSuite#dataValues")
    void roundTripsThroughEveryOperationThatReturnsIt(String data) {
      String key = key("data");
      String a = owner("a");
      grant(backend, key, a, data, longLease());
      LockBackend other = anotherInstance();
      assertThat(read(other, key).orElseThrow().data()).as("read").isEqualTo(data);
      assertThat(acquire(other, key, owner("b"), "x", longLease()).holder().orElseThrow().data())
          .as("holder of a refused acquire")
          .isEqualTo(data);
      assertThat(
              replace(other, key, owner("x"), owner("y"), "x", longLease())
                  .current()
                  .orElseThrow()
                  .data())
          .as("current of a mismatched replace")
          .isEqualTo(data);
      String b = owner("b");
      // new data of the same length limit: reverse the value so it differs yet stays within the
      // limit
      String newData = new StringBuilder(data).reverse().toString() + (data.isEmpty() ? "n" : "");
      String expected =
          newData.length() > SpiLimits.MAX_DATA_LENGTH
              ? newData.substring(0, SpiLimits.MAX_DATA_LENGTH)
              : newData;
      assertThat(replace(other, key, a, b, expected, longLease()).replaced()).isTrue();
      assertThat(read(backend, key).orElseThrow().data())
          .as("new data of a replace")
          .isEqualTo(expected);
    }
  }

  /** Invalid arguments are rejected, never sent. */
  @Nested
  public class InvalidArguments {
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.hostloom.testkit.LockBackendConformanceSuite#invalidCalls")
    void areRejected(Function<LockBackend, CompletableFuture<?>> call) {
      CompletableFuture<?> f;
      try {
        f = call.apply(backend);
      } catch (IllegalArgumentException | NullPointerException thrown) {
        return;
      }
      assertThat(f).as("returned future").isNotNull();
      Throwable failure = null;
      try {
        f.get(TestTiming.scaled(callTimeout()).toNanos(), TimeUnit.NANOSECONDS);
      } catch (ExecutionException e) {
        failure = e.getCause();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      } catch (TimeoutException e) {
        fail("the call neither threw nor completed within " + callTimeout());
      }
      while (failure instanceof CompletionException && failure.getCause() != null) {
        failure = failure.getCause();
      }
      assertThat(failure)
          .as("failure of the future")
          .isInstanceOfAny(IllegalArgumentException.class, NullPointerException.class);
    }

    @Test
    void readOfAnEmptyKeyIsRejectedOrEmpty() {
      CompletableFuture<Optional<LeaseRecord>> f;
      try {
        f = backend.read("");
      } catch (IllegalArgumentException thrown) {
        return;
      }
      try {
        assertThat(TestTiming.get(f, callTimeout())).isEmpty();
      } catch (TestTiming.CompletionFailure e) {
        Throwable cause = e.getCause();
        while (cause instanceof CompletionException && cause.getCause() != null) {
          cause = cause.getCause();
        }
        assertThat(cause).isInstanceOf(IllegalArgumentException.class);
      }
    }
  }

  /**
   * Real threads on two instances contend; a {@link HistoryChecker} watches what they observed
   * (each grant with the send time of its acquire and the time its reply was seen): no overlapping
   * holds, tokens increasing in send order and in grant order.
   */
  @Nested
  public class Contention {
    @Test
    void simultaneousAcquiresHaveExactlyOneWinner() throws Exception {
      int threads = contentionThreads();
      LockBackend[] both = {backend, anotherInstance()};
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        for (int round = 0; round < 5; round++) {
          String key = key("race-" + round);
          CyclicBarrier start = new CyclicBarrier(threads);
          List<Future<AcquireOutcome>> futures = new ArrayList<>();
          List<String> owners = new ArrayList<>();
          for (int t = 0; t < threads; t++) {
            String o = owner("t" + t);
            owners.add(o);
            LockBackend b = both[t % 2];
            futures.add(
                pool.submit(
                    () -> {
                      start.await();
                      return acquire(b, key, o, "data-" + o, longLease());
                    }));
          }
          List<AcquireOutcome> outcomes = new ArrayList<>();
          for (Future<AcquireOutcome> f : futures) {
            outcomes.add(f.get(TestTiming.scaled(callTimeout()).toNanos(), TimeUnit.NANOSECONDS));
          }
          List<Integer> winners = new ArrayList<>();
          for (int t = 0; t < threads; t++) {
            if (outcomes.get(t).granted()) {
              winners.add(t);
            }
          }
          assertThat(winners).as("winners of round %d", round).hasSize(1);
          int w = winners.get(0);
          long token = outcomes.get(w).fencingToken();
          for (AcquireOutcome o : outcomes) {
            if (!o.granted()) {
              assertRecord(
                  o.holder().orElseThrow(),
                  owners.get(w),
                  "data-" + owners.get(w),
                  token,
                  longLease());
            }
          }
          assertThat(release(backend, key, owners.get(w)).released()).isTrue();
        }
      } finally {
        pool.shutdownNow();
      }
    }

    @Test
    void holdsNeverOverlapAndNoUpdateIsLost() throws Exception {
      int threads = contentionThreads();
      int rounds = contentionRoundsPerThread();
      List<String> keys = List.of(key("fuzz-0"), key("fuzz-1"), key("fuzz-2"));
      LockBackend[] both = {backend, anotherInstance()};
      LockHistory history = new LockHistory();
      AtomicLongArray counters = new AtomicLongArray(keys.size());
      long deadline = System.nanoTime() + TestTiming.scaled(Duration.ofSeconds(60)).toNanos();
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int thread = t;
          futures.add(
              pool.submit(
                  () -> {
                    contend(thread, both[thread % 2], keys, rounds, history, counters, deadline);
                    return null;
                  }));
        }
        for (Future<?> f : futures) {
          f.get(deadline - System.nanoTime() + 1_000_000_000L, TimeUnit.NANOSECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
      HistoryReport report = history.check();
      // OVERLAP, TOKEN_ORDER and GRANT_ORDER (a token drawn before the grant was decided)
      if (fencingTokensIncrease()) {
        report.assertNoViolations();
      } else { // every grant has the same token: only exclusion is checked
        assertThat(report.violationCount(HistoryReport.Kind.OVERLAP)).as(report.summary()).isZero();
        assertThat(report.violationCount(HistoryReport.Kind.MALFORMED))
            .as(report.summary())
            .isZero();
      }
      assertThat(report.holds()).isEqualTo((long) threads * rounds);
      long sum = 0;
      for (int k = 0; k < keys.size(); k++) {
        sum += counters.get(k);
        assertThat(read(backend, keys.get(k))).as("key %d is free at the end", k).isEmpty();
      }
      assertThat(sum).as("increments under the lock (lost updates)").isEqualTo(report.holds());
    }

    private void contend(
        int thread,
        LockBackend b,
        List<String> keys,
        int rounds,
        LockHistory history,
        AtomicLongArray counters,
        long deadline) {
      Duration lease = longLease();
      for (int round = 0; round < rounds; round++) {
        int k = (thread + round) % keys.size();
        String key = keys.get(k);
        String o = owner("t" + thread + "-r" + round);
        while (true) {
          if (System.nanoTime() - deadline > 0) {
            throw new AssertionError("thread " + thread + " starved in round " + round);
          }
          long sent = LockHistory.now();
          AcquireOutcome outcome = acquire(b, key, o, "t" + thread, lease);
          if (outcome.granted()) {
            LockHistory.Hold hold =
                history.enter(
                    "key-" + k, "t" + thread + "-r" + round, outcome.fencingToken(), sent, lease);
            long seen = counters.get(k); // a plain read-modify-write: lost if holds overlap
            LockSupport.parkNanos(10_000); // hold a moment, so that an overlap would show
            counters.set(k, seen + 1);
            hold.exit();
            assertThat(release(b, key, o).released()).as("release by the holder").isTrue();
            break;
          }
          assertThat(outcome.holder().orElseThrow().owner()).isNotEqualTo(o);
          // back off about one call's time, so slow backends are not flooded with retries
          long call = Math.max(LockHistory.now() - sent, 50_000L);
          LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(call / 2, call * 2));
        }
      }
    }
  }
}
