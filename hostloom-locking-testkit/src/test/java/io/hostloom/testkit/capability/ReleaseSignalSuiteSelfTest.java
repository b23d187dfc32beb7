package io.hostloom.testkit.capability;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.testkit.ForwardingLockBackend;
import io.hostloom.testkit.ManualLockClock;
import io.hostloom.testkit.SuiteFailures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The release-signal suite has teeth: over signals with one planted defect each it fails, in the
 * tests that name the defect. The same signal without a defect passes ({@link #aCorrectSignal}), so
 * the failures come from the defects.
 */
class ReleaseSignalSuiteSelfTest {

  private static Set<String> failures(Class<?> suite) {
    return SuiteFailures.of(suite, 8);
  }

  @Test
  void aCorrectSignal() {
    assertThat(failures(Correct.class)).isEmpty();
  }

  @Test
  void catchesASignalThatNeverFires() {
    assertThat(failures(NeverFires.class))
        .contains(
            "aReleaseByAnotherInstanceWakesEveryWaitOfThatKeyOnly",
            "aReplaceWakesTheWaitsOfItsKey",
            "cancelledWaitsAreFreedAndTheKeysOtherWaitsStillWake")
        .doesNotContain("refusedReleasesAndReplacesWakeNobody");
  }

  @Test
  void catchesAReleaseThatWakesEveryKey() {
    assertThat(failures(WakesEveryKey.class))
        .containsExactly("aReleaseByAnotherInstanceWakesEveryWaitOfThatKeyOnly");
  }

  @Test
  void catchesRefusalsThatWake() {
    assertThat(failures(RefusalsWake.class))
        .containsExactly("refusedReleasesAndReplacesWakeNobody");
  }

  @Test
  void catchesAMaxWaitThatAnswersTrue() {
    assertThat(failures(MaxWaitAnswersTrue.class))
        .contains(
            "refusedReleasesAndReplacesWakeNobody",
            "expiryAnnouncesNothingSoTheWaitEndsFalseAtMaxWait",
            "aReleaseBeforeTheWaitBeganWakesNothing");
  }

  @Test
  void catchesWaitsThatAreNeverFreed() {
    assertThat(failures(LeaksWaits.class))
        .contains(
            "aReleaseByAnotherInstanceWakesEveryWaitOfThatKeyOnly",
            "cancelledWaitsAreFreedAndTheKeysOtherWaitsStillWake");
  }

  @Test
  void catchesMissingArgumentChecks() {
    assertThat(failures(NoArgumentChecks.class)).containsExactly("argumentsAreChecked");
  }

  // ------------------------------------------------------------ the signal and its defects

  enum Defect {
    NONE,
    NEVER_FIRES,
    WAKES_EVERY_KEY,
    REFUSALS_WAKE,
    MAX_WAIT_ANSWERS_TRUE,
    LEAKS_WAITS,
    NO_ARGUMENT_CHECKS
  }

  /**
   * A release signal of its own over an in-memory backend on a manual clock (the in-memory
   * backend's own signal is what the suite passes in {@link InMemoryReleaseSignalTest}).
   */
  static final class Signalling extends ForwardingLockBackend implements ReleaseSignal {
    private record Wait(String key, CompletableFuture<Boolean> future) {}

    private final ManualLockClock clock;
    private final Defect defect;
    private final List<Wait> waits = new ArrayList<>();

    Signalling(ManualLockClock clock, Defect defect) {
      super(new InMemoryLockBackend(clock));
      this.clock = clock;
      this.defect = defect;
    }

    @Override
    public CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait) {
      if (defect != Defect.NO_ARGUMENT_CHECKS) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(maxWait, "maxWait");
        if (key.isEmpty()) {
          throw new IllegalArgumentException("key must not be empty");
        }
        if (maxWait.isNegative()) {
          throw new IllegalArgumentException("maxWait must not be negative but was " + maxWait);
        }
      }
      if (maxWait == null || maxWait.isZero() || maxWait.isNegative()) {
        return CompletableFuture.completedFuture(false);
      }
      CompletableFuture<Boolean> f = new CompletableFuture<>();
      Wait w = new Wait(key, f);
      synchronized (waits) {
        waits.add(w);
      }
      var timer = clock.schedule(maxWait, () -> f.complete(defect == Defect.MAX_WAIT_ANSWERS_TRUE));
      f.whenComplete(
          (v, t) -> {
            timer.cancel();
            if (defect != Defect.LEAKS_WAITS) {
              synchronized (waits) {
                waits.remove(w);
              }
            }
          });
      return f;
    }

    int pending() {
      synchronized (waits) {
        return (int)
            waits.stream()
                .filter(w -> defect == Defect.LEAKS_WAITS || !w.future().isDone())
                .count();
      }
    }

    private void announce(String key, boolean done) {
      if (defect == Defect.NEVER_FIRES || !(done || defect == Defect.REFUSALS_WAKE)) {
        return;
      }
      List<Wait> woken = new ArrayList<>();
      synchronized (waits) {
        for (Wait w : waits) {
          if (defect == Defect.WAKES_EVERY_KEY || w.key().equals(key)) {
            woken.add(w);
          }
        }
      }
      woken.forEach(w -> w.future().complete(true));
    }

    @Override
    public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
      return delegate
          .release(key, owner)
          .thenApply(
              o -> {
                announce(key, o.released());
                return o;
              });
    }

    @Override
    public CompletableFuture<ReplaceOutcome> replace(
        String key, String expectedOwner, String newOwner, String newData, Duration lease) {
      return delegate
          .replace(key, expectedOwner, newOwner, newData, lease)
          .thenApply(
              o -> {
                announce(key, o.replaced());
                return o;
              });
    }
  }

  abstract static class BrokenSuite extends ReleaseSignalSuite {
    final ManualLockClock clock = new ManualLockClock();
    final Signalling backend = new Signalling(clock, defect());

    abstract Defect defect();

    @Override
    protected LockBackend newBackend() {
      return backend;
    }

    @Override
    protected void passTime(Duration duration) {
      clock.advance(duration);
    }

    @Override
    protected Duration signalTimeout() {
      return Duration.ofMillis(200);
    }

    @Override
    protected OptionalInt pendingWaits(LockBackend instance) {
      return OptionalInt.of(backend.pending());
    }
  }

  static class Correct extends BrokenSuite {
    @Override
    Defect defect() {
      return Defect.NONE;
    }
  }

  static class NeverFires extends BrokenSuite {
    @Override
    Defect defect() {
      return Defect.NEVER_FIRES;
    }
  }

  static class WakesEveryKey extends BrokenSuite {
    @Override
    Defect defect() {
      return Defect.WAKES_EVERY_KEY;
    }
  }

  static class RefusalsWake extends BrokenSuite {
    @Override
    Defect defect() {
      return Defect.REFUSALS_WAKE;
    }
  }

  static class MaxWaitAnswersTrue extends BrokenSuite {
    @Override
    Defect defect() {
      return Defect.MAX_WAIT_ANSWERS_TRUE;
    }
  }

  static class LeaksWaits extends BrokenSuite {
    @Override
    Defect defect() {
      return Defect.LEAKS_WAITS;
    }
  }

  static class NoArgumentChecks extends BrokenSuite {
    @Override
    Defect defect() {
      return Defect.NO_ARGUMENT_CHECKS;
    }
  }
}
