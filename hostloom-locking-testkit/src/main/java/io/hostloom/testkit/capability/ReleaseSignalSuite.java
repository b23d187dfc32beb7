package io.hostloom.testkit.capability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.testkit.ManualLockClock;
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
 * <p>What it checks: a release or replace by another instance wakes every wait on that key and no
 * wait on another key; refused releases and replaces, expiry and releases before the wait began
 * wake nobody, so those waits end {@code false} at {@code maxWait}; a zero {@code maxWait} answers
 * {@code false} at once; cancelling a wait frees it and leaves the other waits of the key working;
 * arguments are checked. Backend-specific behaviour (reconnects, signals switched off, closing)
 * stays in the backend's own tests.
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
   * Waits the backend's instance has pending, when it can tell (waits not yet completed); the suite
   * then checks that ended waits leave nothing behind. Default: empty (not observable).
   */
  protected OptionalInt pendingWaits(LockBackend instance) {
    return OptionalInt.empty();
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

  /** Closes an instance after each test. Default: closes it if {@link AutoCloseable}. */
  protected void closeBackend(LockBackend instance) throws Exception {
    if (instance instanceof AutoCloseable closeable) {
      closeable.close();
    }
  }

  @AfterEach
  final void closeSignalBackends() throws Exception {
    Exception first = null;
    for (LockBackend instance : instances) {
      try {
        closeBackend(instance);
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    instances.clear();
    if (first != null) {
      throw first;
    }
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

  private void assertNoPendingWaits(LockBackend b) {
    OptionalInt pending = pendingWaits(b);
    if (pending.isPresent()) {
      assertThat(pending.getAsInt()).as("pending waits").isZero();
    }
  }

  // ---------------------------------------------------------------- tests

  @Test
  void aReleaseByAnotherInstanceWakesEveryWaitOfThatKeyOnly() {
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
    assertThat(get(first)).as("first wait on the released key").isTrue();
    assertThat(get(second)).as("second wait on the released key").isTrue();
    assertThat(notWoken).as("the wait on a key nobody released").isNotDone();
    assertThat(get(waiter.acquire(k, "w", "", LONG)).granted()).isTrue();

    notWoken.cancel(false);
    assertNoPendingWaits(waiter);
  }

  @Test
  void aReplaceWakesTheWaitsOfItsKey() {
    LockBackend holder = instance();
    LockBackend waiter = instance();
    String k = key("replaced");
    get(holder.acquire(k, "a", "", LONG));
    CompletableFuture<Boolean> woken = signal(waiter).awaitRelease(k, LONG);
    assertThat(get(holder.replace(k, "a", "b", "", LONG)).replaced()).isTrue();
    assertThat(get(woken)).isTrue();
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
  void aReleaseBeforeTheWaitBeganWakesNothing() {
    LockBackend b = instance();
    String k = key("before");
    get(b.acquire(k, "a", "", LONG));
    assertThat(get(b.release(k, "a")).released()).isTrue();
    CompletableFuture<Boolean> wait = signal(b).awaitRelease(k, shortWait());
    passTime(shortWait());
    assertThat(get(wait)).as("woken by a release that happened before the wait").isFalse();
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
}
