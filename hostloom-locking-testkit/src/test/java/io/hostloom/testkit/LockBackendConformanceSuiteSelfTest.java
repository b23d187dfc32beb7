package io.hostloom.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The conformance suite has teeth: run over backends with one planted defect each, it fails, and in
 * the tests that name the defect. (The suite passing over a correct backend is {@link
 * InMemoryLockBackendConformanceTest}.)
 */
class LockBackendConformanceSuiteSelfTest {

  /** Runs the suite subclass {@code suite} and returns the names of the failed test methods. */
  private static Set<String> failures(Class<?> suite) {
    return SuiteFailures.of(suite, 51);
  }

  @Test
  void catchesAnUnconditionalRelease() {
    assertThat(failures(UnconditionalRelease.class))
        .contains("wrongOwnerCannotRelease", "aStaleOwnerNeverRemovesItsSuccessor")
        .doesNotContain("grantsAFreeKeyWithAPositiveToken");
  }

  @Test
  void catchesAGrantToEveryone() {
    assertThat(failures(NoExclusion.class))
        .contains(
            "refusesAHeldKeyAndReportsTheHolder",
            "simultaneousAcquiresHaveExactlyOneWinner",
            "holdsNeverOverlapAndNoUpdateIsLost");
  }

  @Test
  void catchesARetriedAcquireThatIsANewGrant() {
    assertThat(failures(ReacquireIsANewGrant.class))
        .contains(
            "sameOwnerKeepsTokenAndDataAndResetsExpiry",
            "sameOwnerFromAnotherInstanceIsTheSameGrant");
  }

  @Test
  void catchesTokensThatAreNotSharedBetweenInstances() {
    assertThat(failures(TokensPerInstance.class))
        .contains(
            "increaseOverManyGrantsFromTwoInstances", "increaseAcrossReleaseExpiryAndReplace");
  }

  @Test
  void catchesDataThatIsTrimmed() {
    assertThat(failures(TrimsData.class))
        .containsExactly("roundTripsThroughEveryOperationThatReturnsIt");
  }

  @Test
  void catchesALeaseThatNeverExpires() {
    assertThat(failures(NeverExpires.class))
        .contains(
            "anExpiredLeaseFreesTheKey",
            "extendCanShortenTheLease",
            "aStaleOwnerNeverRemovesItsSuccessor");
  }

  @Test
  void catchesARefusalThatDoesNotNameTheHolder() {
    assertThat(failures(RefusalsWithoutHolder.class))
        .contains(
            "wrongOwnerCannotExtend",
            "wrongOwnerCannotRelease",
            "ownersAreComparedExactly",
            "aStaleOwnerNeverRemovesItsSuccessor")
        .doesNotContain("absentKeyReleaseIsFalse", "absentKeyCannotBeExtendedAndStaysFree");
  }

  @Test
  void catchesMissingArgumentChecks() {
    assertThat(failures(AcceptsEmptyOwners.class)).containsExactly("areRejected");
  }

  // ------------------------------------------------------------ broken backends

  /** Forwards everything; subclasses plant one defect. */
  abstract static class Forwarding extends ForwardingLockBackend {
    Forwarding(LockBackend delegate) {
      super(delegate);
    }
  }

  /** A suite over one shared in-memory backend on a manual clock, each instance wrapped. */
  abstract static class BrokenSuite extends LockBackendConformanceSuite {
    final ManualLockClock clock = new ManualLockClock();
    final InMemoryLockBackend shared = new InMemoryLockBackend(clock);

    @Override
    protected void passTime(Duration duration) {
      clock.advance(duration);
    }

    @Override
    protected Duration expiryGrace() {
      return Duration.ofMillis(50);
    }

    @Override
    protected Duration callTimeout() {
      return Duration.ofSeconds(2);
    }

    @Override
    protected int contentionRoundsPerThread() {
      return 20;
    }
  }

  static class UnconditionalRelease extends BrokenSuite {
    @Override
    protected LockBackend newBackend() {
      return new Forwarding(shared) {
        @Override
        public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
          // reads, then deletes whoever holds: the classic stale-owner bug
          return delegate
              .read(key)
              .thenCompose(
                  r ->
                      r.isPresent()
                          ? delegate.release(key, r.get().owner())
                          : CompletableFuture.completedFuture(ReleaseOutcome.absent()));
        }
      };
    }
  }

  static class NoExclusion extends BrokenSuite {
    final AtomicLong tokens = new AtomicLong();

    @Override
    protected LockBackend newBackend() {
      return new Forwarding(shared) {
        @Override
        public CompletableFuture<AcquireOutcome> acquire(
            String key, String owner, String data, Duration lease) {
          return delegate
              .acquire(key, owner, data, lease)
              .thenApply(
                  o ->
                      o.granted()
                          ? o
                          : AcquireOutcome.granted(1_000_000 + tokens.incrementAndGet()));
        }
      };
    }
  }

  static class ReacquireIsANewGrant extends BrokenSuite {
    @Override
    protected LockBackend newBackend() {
      return new Forwarding(shared) {
        @Override
        public CompletableFuture<AcquireOutcome> acquire(
            String key, String owner, String data, Duration lease) {
          return delegate
              .release(key, owner)
              .thenCompose(released -> delegate.acquire(key, owner, data, lease));
        }
      };
    }
  }

  static class TokensPerInstance extends BrokenSuite {
    @Override
    protected LockBackend newBackend() {
      AtomicLong own = new AtomicLong();
      return new Forwarding(shared) {
        @Override
        public CompletableFuture<AcquireOutcome> acquire(
            String key, String owner, String data, Duration lease) {
          return delegate
              .acquire(key, owner, data, lease)
              .thenApply(o -> o.granted() ? AcquireOutcome.granted(own.incrementAndGet()) : o);
        }

        @Override
        public CompletableFuture<ReplaceOutcome> replace(
            String key, String expectedOwner, String newOwner, String newData, Duration lease) {
          return delegate
              .replace(key, expectedOwner, newOwner, newData, lease)
              .thenApply(o -> o.replaced() ? ReplaceOutcome.replaced(own.incrementAndGet()) : o);
        }
      };
    }
  }

  static class TrimsData extends BrokenSuite {
    @Override
    protected LockBackend newBackend() {
      return new Forwarding(shared) {
        @Override
        public CompletableFuture<AcquireOutcome> acquire(
            String key, String owner, String data, Duration lease) {
          return delegate.acquire(key, owner, data == null ? null : data.strip(), lease);
        }
      };
    }
  }

  static class NeverExpires extends BrokenSuite {
    @Override
    protected LockBackend newBackend() {
      return new Forwarding(shared) {};
    }

    @Override
    protected void passTime(Duration duration) {
      // the backend's clock stands still
    }
  }

  /** Refused extends and releases answer "absent" whoever holds (the old boolean answer). */
  static class RefusalsWithoutHolder extends BrokenSuite {
    @Override
    protected LockBackend newBackend() {
      return new Forwarding(shared) {
        @Override
        public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
          return delegate
              .extend(key, owner, lease)
              .thenApply(o -> o.extended() ? o : ExtendOutcome.absent());
        }

        @Override
        public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
          return delegate
              .release(key, owner)
              .thenApply(o -> o.released() ? o : ReleaseOutcome.absent());
        }
      };
    }
  }

  static class AcceptsEmptyOwners extends BrokenSuite {
    @Override
    protected LockBackend newBackend() {
      return new Forwarding(shared) {
        @Override
        public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
          return owner != null && owner.isEmpty()
              ? CompletableFuture.completedFuture(ReleaseOutcome.absent())
              : delegate.release(key, owner);
        }
      };
    }
  }
}
