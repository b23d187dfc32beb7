package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.jdbc.PollingReleaseWatcher.State;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The watcher's decision over scripted reads (what the key's row looked like at each poll): the
 * first read is the baseline, and a tombstone younger than the wait on it counts as a release;
 * later reads compare with the previous one. The reads against a real MariaDB are {@code
 * MariaDbReleaseSignalTest}'s.
 */
class PollingReleaseWatcherTest {
  private static final long AN_HOUR_MICROS = 3_600_000_000L;
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stopTimer() {
    timer.shutdownNow();
  }

  /** One wait over scripted reads: answers the states in order, then the last one for ever. */
  private final class Watch {
    final Deque<Optional<State>> script;
    final AtomicInteger reads = new AtomicInteger();
    final CompletableFuture<Boolean> signal = new CompletableFuture<>();
    final PollingReleaseWatcher watcher;

    @SafeVarargs
    Watch(Optional<State>... states) {
      script = new ArrayDeque<>(List.of(states));
      watcher = new PollingReleaseWatcher(key -> read(), timer);
      watcher.started("k", signal);
    }

    private synchronized CompletableFuture<Optional<State>> read() {
      reads.incrementAndGet();
      return CompletableFuture.completedFuture(script.size() > 1 ? script.poll() : script.peek());
    }

    /** Waits until every scripted state and two repeats of the last were read. */
    void readPastTheScript(int states) {
      TestTiming.await("reads", () -> reads.get() >= states + 2 || signal.isDone(), TIMEOUT);
    }
  }

  private static Optional<State> live(long token, long changedMicrosAgo) {
    return Optional.of(new State(token, false, changedMicrosAgo));
  }

  private static Optional<State> tombstone(long token, long changedMicrosAgo) {
    return Optional.of(new State(token, true, changedMicrosAgo));
  }

  @Test
  void aLiveRowChangedJustBeforeTheFirstReadIsTheBaselineNotASignal() {
    // a grant just before the wait and a replace just after it look alike on the first read;
    // counting them would wake every fresh wait (the missed replace costs a retry step instead)
    Watch w = new Watch(live(2, 0));
    w.readPastTheScript(1);
    assertThat(w.signal).isNotDone();
    assertThat(w.watcher.unobservedWaits()).as("the baseline is set").isZero();
    w.signal.cancel(false);
  }

  @Test
  void aWaitWithoutAnsweredReadIsUnobservedUntilItEnds() {
    PollingReleaseWatcher watcher =
        new PollingReleaseWatcher(key -> new CompletableFuture<>(), timer); // never answers
    CompletableFuture<Boolean> wait = new CompletableFuture<>();
    watcher.started("k", wait);
    assertThat(watcher.unobservedWaits()).isEqualTo(1);
    wait.complete(false);
    assertThat(watcher.unobservedWaits()).isZero();
  }

  @Test
  void aFirstReadAnsweredAfterAReleaseSignals() {
    Watch w = new Watch(tombstone(1, 0));
    assertThat(TestTiming.get(w.signal, TIMEOUT)).isTrue();
  }

  @Test
  void aLeaseGrantedBeforeTheWaitSignalsWhenReplacedOrReleased() {
    Watch replaced =
        new Watch(live(1, AN_HOUR_MICROS), live(1, AN_HOUR_MICROS), live(2, AN_HOUR_MICROS));
    Watch released = new Watch(live(1, AN_HOUR_MICROS), tombstone(1, AN_HOUR_MICROS));
    Watch purged = new Watch(live(1, AN_HOUR_MICROS), Optional.empty());
    assertThat(TestTiming.get(replaced.signal, TIMEOUT)).isTrue();
    assertThat(TestTiming.get(released.signal, TIMEOUT)).isTrue();
    assertThat(TestTiming.get(purged.signal, TIMEOUT)).isTrue();
  }

  @Test
  void aLeaseHeldSinceBeforeTheWaitAndNeverChangedSignalsNothing() {
    Watch held = new Watch(live(1, AN_HOUR_MICROS));
    held.readPastTheScript(1);
    assertThat(held.signal).isNotDone();
    held.signal.cancel(false);
  }

  @Test
  void anOldTombstoneNoRowOrAGrantAfterATombstoneSignalNothing() {
    Watch oldTombstone = new Watch(tombstone(1, AN_HOUR_MICROS));
    Watch noRow = new Watch(Optional.empty());
    Watch grantedAfterTombstone = new Watch(tombstone(1, AN_HOUR_MICROS), live(2, AN_HOUR_MICROS));
    oldTombstone.readPastTheScript(1);
    noRow.readPastTheScript(1);
    grantedAfterTombstone.readPastTheScript(2);
    assertThat(oldTombstone.signal).isNotDone();
    assertThat(noRow.signal).isNotDone();
    assertThat(grantedAfterTombstone.signal)
        .as("a grant after a tombstone releases nothing the wait saw held")
        .isNotDone();
  }
}
