package io.hostloom.testkit.capability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.testing.ManualLockClock;
import io.hostloom.testkit.Closing;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link ReleaseSignal} capability as one JUnit 5 suite: a backend whose instances implement it
 * passes by subclassing and supplying {@link #newBackend()}:
 *
 * <pre>{@code
 * class RedisReleaseSignalTest extends ReleaseSignalSuite {
 *   @Override protected LockBackend newBackend() {
 *     return RedisLockBackend.builder().uri(RedisServerProcess.shared().uri()).build();
 *   }
 *   @Override protected void awaitSignalReady(LockBackend b) { ... } // e.g. subscription confirmed
 * }
 * }</pre>
 *
 * <p>What it checks: a release by another instance wakes the waits on that key (every one, or the
 * oldest where declared) and no wait on another key; a replace wakes them too where the backend
 * says it announces replaces ({@link #replaceAnnounces()}); refused releases and replaces and
 * expiry wake nobody, so those waits end {@code false} at {@code maxWait}; a zero {@code maxWait}
 * answers {@code false} at once; cancelling a wait frees it and leaves the other waits of the key
 * working; arguments are checked. The edges every backend shares (its waits are a {@code
 * ReleaseWaitRegistry} in the kernel's {@code spi.support}): a {@code maxWait} of centuries is
 * accepted (saturated, never an overflow) and still woken by a release; closing an instance ends
 * its waits {@code false} and later waits answer {@code false} at once; where the backend can drop
 * its announcement connection ({@link #dropSignalConnection}), the reconnect wakes every pending
 * wait of every key. Not checked: that a release just before the wait began wakes nothing
 * (announcements travel asynchronously and the SPI allows spurious signals). Other backend-specific
 * behaviour (signals switched off) stays in the backend's own tests.
 *
 * <p><b>Time.</b> Waits that must <em>not</em> be woken use {@link #shortWait()} as their {@code
 * maxWait}; the suite lets it pass with {@link #passTime} (a real wait by default; a backend on a
 * {@link ManualLockClock} advances the clock) and then expects {@code false}. Waits that must be
 * woken use a {@code maxWait} of minutes, so a {@code true} within {@link #signalTimeout()} came
 * from the signal.
 */
public abstract class ReleaseSignalSuite {
  private static final Duration LONG = Duration.ofMinutes(5);

  private final List<LockBackend> instances = new ArrayList<>();

  /**
   * A new, independent instance of the backend under test over the same shared server, with release
   * signals on; it must implement {@link ReleaseSignal}. Instances of a backend without a server
   * (in-memory) may all be one object.
   */
  protected abstract LockBackend newBackend();

  /**
   * Blocks until {@code instance} hears releases (a subscription confirmed, a listener connected).
   * Called once for every instance the suite makes. Default: nothing to wait for.
   */
  protected void awaitSignalReady(LockBackend instance) {}

  /**
   * Blocks until every pending wait of {@code instance} watches its key. Default: nothing to wait
   * for (a subscription watches from the call on). A polling backend waits until each wait's first
   * read answered: a replace before that is not seen, a missed signal that the SPI allows (the
   * waiter moves on at its retry step), so the suite checks wake-ups by replaces after it.
   */
  protected void awaitWaitsWatching(LockBackend instance) {}

  /**
   * Waits the backend's instance has pending, when it can tell (waits not yet completed); the suite
   * then checks that ended waits leave nothing behind. Default: empty (not observable).
   */
  protected OptionalInt pendingWaits(LockBackend instance) {
    return OptionalInt.empty();
  }

  /**
   * Whether a successful replace announces its key (the SPI allows a backend to announce releases
   * only; its README says which). Default {@code true}; the suite checks the declared behaviour
   * either way.
   */
  protected boolean replaceAnnounces() {
    return true;
  }

  /**
   * Whether one release wakes every wait of its key in an instance ({@code true}, the default) or
   * only the oldest ({@code false}, as {@link ReleaseSignal} allows); the suite checks the declared
   * behaviour either way.
   */
  protected boolean wakesEveryWait() {
    return true;
  }

  /** A lease short enough to wait out. Default 200 ms. */
  protected Duration shortLease() {
    return Duration.ofMillis(200);
  }

  /** The {@code maxWait} of waits that must end {@code false}. Default 300 ms. */
  protected Duration shortWait() {
    return Duration.ofMillis(300);
  }

  /**
   * Lets {@code duration} pass on the backend's timer. Default: a real wait ({@link
   * TestTiming#pass}); a backend on a {@link ManualLockClock} advances the clock.
   */
  protected void passTime(Duration duration) {
    TestTiming.pass(duration);
  }

  /** The longest a signal may take to arrive, scaled by {@link TestTiming}. Default 10 s. */
  protected Duration signalTimeout() {
    return Duration.ofSeconds(10);
  }

  /**
   * Drops {@code instance}'s announcement connection (a killed listener session, an expired
   * session), after which it reconnects by itself; answers whether it did. Default {@code false}:
   * the backend has no connection the suite can drop, and the reconnect check checks nothing.
   */
  protected boolean dropSignalConnection(LockBackend instance) throws Exception {
    return false;
  }

  /** Closes an instance after each test. Default: closes it if {@link AutoCloseable}. */
  protected void closeBackend(LockBackend instance) throws Exception {
    Closing.ifCloseable(instance);
  }

  @AfterEach
  final void closeSignalBackends() throws Exception {
    Closing.all(instances, this::closeBackend);
  }

  // ---------------------------------------------------------------- helpers

  /** A new instance, ready to hear releases, closed after the test. */
  protected final LockBackend instance() {
    LockBackend b = newBackend();
    assertThat(b).as("newBackend()").isInstanceOf(ReleaseSignal.class);
    if (!instances.contains(b)) {
      instances.add(b);
    }
    awaitSignalReady(b);
    return b;
  }

  /** {@code instance} as a {@link ReleaseSignal}. */
  protected static ReleaseSignal signal(LockBackend instance) {
    return (ReleaseSignal) instance;
  }

  /** A key unique to this call. */
  protected static String key(String label) {
    return "hl-signal:" + UUID.randomUUID() + ":" + label;
  }

  /** The value of {@code future}, which must complete within {@link #signalTimeout()}. */
  protected final <T> T get(CompletableFuture<T> future) {
    return TestTiming.get(future, signalTimeout());
  }

  /**
   * Ended waits leave nothing behind: the count falls to 0 within {@link #signalTimeout()} (a
   * wait's own clean-up runs as it completes, possibly just after the caller saw it done).
   */
  private void assertNoPendingWaits(LockBackend b) {
    if (pendingWaits(b).isPresent()) {
      TestTiming.await(
          "no pending waits (" + pendingWaits(b).getAsInt() + " left)",
          () -> pendingWaits(b).getAsInt() == 0,
          signalTimeout());
    }
  }

  // ---------------------------------------------------------------- tests

  @Test
  void aReleaseByAnotherInstanceWakesTheWaitsOfThatKeyOnly() {
    LockBackend holder = instance();
    LockBackend waiter = instance();
    String k = key("released");
    String other = key("kept");
    assertThat(get(holder.acquire(k, "h", "", LONG)).granted()).isTrue();
    assertThat(get(holder.acquire(other, "h", "", LONG)).granted()).isTrue();

    CompletableFuture<Boolean> first = signal(waiter).awaitRelease(k, LONG);
    CompletableFuture<Boolean> second = signal(waiter).awaitRelease(k, LONG);
    CompletableFuture<Boolean> notWoken = signal(waiter).awaitRelease(other, LONG);
    assertThat(get(waiter.acquire(k, "w", "", LONG)).granted()).as("held").isFalse();

    assertThat(get(holder.release(k, "h")).released()).isTrue();
    assertThat(get(first)).as("first (oldest) wait on the released key").isTrue();
    if (wakesEveryWait()) {
      assertThat(get(second)).as("second wait on the released key").isTrue();
    } else {
      assertThat(second).as("second wait, declared to wait for the next release").isNotDone();
    }
    assertThat(notWoken).as("the wait on a key nobody released").isNotDone();
    assertThat(get(waiter.acquire(k, "w", "", LONG)).granted()).isTrue();
    if (!wakesEveryWait()) {
      assertThat(get(waiter.release(k, "w")).released()).isTrue();
      assertThat(get(second)).as("second wait, woken by the next release").isTrue();
    }

    notWoken.cancel(false);
    assertNoPendingWaits(waiter);
  }

  @Test
  void aReplaceWakesTheWaitsOfItsKeyWhereDeclared() {
    LockBackend holder = instance();
    LockBackend waiter = instance();
    String k = key("replaced");
    get(holder.acquire(k, "a", "", LONG));
    Duration maxWait = replaceAnnounces() ? LONG : shortWait();
    CompletableFuture<Boolean> wait = signal(waiter).awaitRelease(k, maxWait);
    awaitWaitsWatching(waiter);
    assertThat(get(holder.replace(k, "a", "b", "", LONG)).replaced()).isTrue();
    if (!replaceAnnounces()) {
      passTime(shortWait());
    }
    assertThat(get(wait)).as("woken by the replace").isEqualTo(replaceAnnounces());
  }

  @Test
  void refusedReleasesAndReplacesWakeNobody() {
    LockBackend holder = instance();
    LockBackend waiter = instance();
    String k = key("refused");
    get(holder.acquire(k, "a", "", LONG));
    CompletableFuture<Boolean> wait = signal(waiter).awaitRelease(k, shortWait());
    assertThat(get(holder.release(k, "not-the-owner")).released()).isFalse();
    assertThat(get(holder.replace(k, "not-the-owner", "c", "", LONG)).replaced()).isFalse();
    passTime(shortWait());
    assertThat(get(wait)).as("woken by a refused release or replace").isFalse();
    assertNoPendingWaits(waiter);
  }

  @Test
  void expiryAnnouncesNothingSoTheWaitEndsFalseAtMaxWait() {
    LockBackend holder = instance();
    LockBackend waiter = instance();
    String k = key("expires");
    assertThat(get(holder.acquire(k, "a", "", shortLease())).granted()).isTrue();
    Duration maxWait = shortLease().plus(shortWait());
    CompletableFuture<Boolean> wait = signal(waiter).awaitRelease(k, maxWait);
    passTime(maxWait);
    assertThat(get(wait)).as("woken by an expiry").isFalse();
    assertThat(get(waiter.read(k))).as("the lease did expire meanwhile").isEmpty();
    assertNoPendingWaits(waiter);
  }

  @Test
  void aZeroMaxWaitAnswersFalseAtOnce() {
    LockBackend b = instance();
    String k = key("zero");
    get(b.acquire(k, "a", "", LONG));
    assertThat(signal(b).awaitRelease(k, Duration.ZERO)).isCompletedWithValue(false);
    assertNoPendingWaits(b);
  }

  @Test
  void cancelledWaitsAreFreedAndTheKeysOtherWaitsStillWake() {
    LockBackend holder = instance();
    LockBackend waiter = instance();
    String k = key("cancelled");
    get(holder.acquire(k, "a", "", LONG));
    List<CompletableFuture<Boolean>> cancelled = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      cancelled.add(signal(waiter).awaitRelease(i % 2 == 0 ? k : key("other"), LONG));
    }
    CompletableFuture<Boolean> endedFalse = signal(waiter).awaitRelease(k, LONG);
    cancelled.forEach(w -> w.cancel(false));
    endedFalse.complete(false); // how the kernel ends a wait it no longer needs
    CompletableFuture<Boolean> kept = signal(waiter).awaitRelease(k, LONG);

    assertThat(get(holder.release(k, "a")).released()).isTrue();
    assertThat(get(kept)).as("the wait that was not cancelled").isTrue();
    assertThat(cancelled).allMatch(CompletableFuture::isCancelled);
    assertThat(endedFalse).isCompletedWithValue(false);
    assertNoPendingWaits(waiter);
  }

  @Test
  void argumentsAreChecked() {
    ReleaseSignal s = signal(instance());
    assertThatThrownBy(() -> s.awaitRelease(null, LONG)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> s.awaitRelease("k", null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> s.awaitRelease("", LONG)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> s.awaitRelease("k", Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("but was PT-0.001S");
  }

  @Test
  void aMaxWaitOfCenturiesIsAcceptedAndStillWokenByARelease() {
    LockBackend holder = instance();
    LockBackend waiter = instance();
    String k = key("centuries");
    get(holder.acquire(k, "a", "", LONG));
    CompletableFuture<Boolean> wait =
        signal(waiter).awaitRelease(k, Duration.ofSeconds(Long.MAX_VALUE));
    passTime(shortWait());
    assertThat(wait).as("a wait of Long.MAX_VALUE seconds, after a short while").isNotDone();
    assertThat(get(holder.release(k, "a")).released()).isTrue();
    assertThat(get(wait)).as("woken by the release").isTrue();
    assertNoPendingWaits(waiter);
  }

  @Test
  void closingAnInstanceEndsItsWaitsFalse() throws Exception {
    LockBackend holder = instance();
    LockBackend waiter = newBackend();
    awaitSignalReady(waiter);
    if (!(waiter instanceof AutoCloseable) || waiter == holder) {
      if (!instances.contains(waiter)) {
        instances.add(waiter);
      }
      return; // nothing to close (one object serves every instance)
    }
    String k = key("closed");
    get(holder.acquire(k, "a", "", LONG));
    CompletableFuture<Boolean> first = signal(waiter).awaitRelease(k, LONG);
    CompletableFuture<Boolean> other = signal(waiter).awaitRelease(key("other"), LONG);
    closeBackend(waiter);
    assertThat(get(first)).as("a wait pending at close").isFalse();
    assertThat(get(other)).as("a wait on another key pending at close").isFalse();
    assertThat(get(signal(waiter).awaitRelease(k, LONG))).as("a wait after close").isFalse();
    assertNoPendingWaits(waiter);
  }

  @Test
  void aReconnectWakesEveryPendingWaitOfEveryKey() throws Exception {
    LockBackend holder = instance();
    LockBackend waiter = instance();
    String k = key("reconnect");
    String other = key("reconnect-other");
    get(holder.acquire(k, "a", "", LONG));
    get(holder.acquire(other, "a", "", LONG));
    CompletableFuture<Boolean> first = signal(waiter).awaitRelease(k, LONG);
    CompletableFuture<Boolean> second = signal(waiter).awaitRelease(k, LONG);
    CompletableFuture<Boolean> onOther = signal(waiter).awaitRelease(other, LONG);
    if (!dropSignalConnection(waiter)) {
      List.of(first, second, onOther).forEach(w -> w.complete(false));
      return; // no connection to drop
    }
    assertThat(get(first)).as("a release may have been missed meanwhile").isTrue();
    assertThat(get(second)).as("every wait of the key, even where one release wakes one").isTrue();
    assertThat(get(onOther)).as("and of every other key").isTrue();
    awaitSignalReady(waiter);
    CompletableFuture<Boolean> after = signal(waiter).awaitRelease(k, LONG);
    assertThat(get(holder.release(k, "a")).released()).isTrue();
    assertThat(get(after)).as("signals work again after the reconnect").isTrue();
    assertNoPendingWaits(waiter);
  }
}
