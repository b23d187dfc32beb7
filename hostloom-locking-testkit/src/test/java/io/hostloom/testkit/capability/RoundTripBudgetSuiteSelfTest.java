package io.hostloom.testkit.capability;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.BackendHealthProbe;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.testkit.ForwardingLockBackend;
import io.hostloom.testkit.SuiteFailures;
import io.hostloom.testkit.capability.RoundTripBudget.Case;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The round-trip suite has teeth: over backends whose counted trips differ from the declared budget
 * in one place each it fails, in the tests of that operation; the same backend without a difference
 * passes ({@link #aBackendWithinBudget}). The "wire" is a pair of counters that record every call
 * an in-memory backend gets (one call, one trip).
 */
class RoundTripBudgetSuiteSelfTest {

  private static Set<String> failures(Class<?> suite) {
    return SuiteFailures.of(suite, 8);
  }

  @Test
  void aBackendWithinBudget() {
    assertThat(failures(Correct.class)).isEmpty();
  }

  @Test
  void catchesACounterThatCountsNothing() {
    assertThat(failures(CountsNothing.class))
        .contains("acquire", "acquireAndReadAfterExpiry", "extend", "release", "replace", "read")
        .contains("healthProbeWhereTheBackendHasOne")
        .doesNotContain("releaseWaitsWhereTheBackendHasThem"); // declared 0, and it is 0
  }

  @Test
  void catchesARefusedAcquireThatReadsAgain() {
    assertThat(failures(HeldAcquireReadsAgain.class)).containsExactly("acquire");
  }

  @Test
  void catchesReleaseWaitsThatSendCommands() {
    assertThat(failures(WaitsSendCommands.class))
        .containsExactly("releaseWaitsWhereTheBackendHasThem");
  }

  @Test
  void catchesACostOnlyTheSecondCounterSees() {
    assertThat(failures(SecondCounterSeesMore.class)).containsExactly("release");
  }

  // ------------------------------------------------------------ the counted backend

  enum Defect {
    NONE,
    COUNTS_NOTHING,
    HELD_ACQUIRE_READS_AGAIN,
    WAITS_SEND_COMMANDS,
    SECOND_COUNTER_SEES_MORE
  }

  /** A list of trips one side of the wire saw. */
  static final class Trips implements RoundTripCounter {
    private final String name;
    private final List<String> trips = new ArrayList<>();

    Trips(String name) {
      this.name = name;
    }

    synchronized void add(String trip) {
      trips.add(trip);
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public synchronized void reset() {
      trips.clear();
    }

    @Override
    public synchronized List<String> roundTrips() {
      return new ArrayList<>(trips);
    }
  }

  /** Every call is one trip on both counters, except where the defect says otherwise. */
  static final class Counted extends ForwardingLockBackend
      implements ReleaseSignal, BackendHealthProbe {
    final Trips client = new Trips("client");
    final Trips server = new Trips("server");
    private final InMemoryLockBackend memory;
    private final Defect defect;

    Counted(InMemoryLockBackend memory, Defect defect) {
      super(memory);
      this.memory = memory;
      this.defect = defect;
    }

    private void trip(String what) {
      if (defect != Defect.COUNTS_NOTHING) {
        client.add(what);
        server.add(what);
      }
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquire(
        String key, String owner, String data, Duration lease) {
      trip("acquire");
      return delegate
          .acquire(key, owner, data, lease)
          .thenApply(
              o -> {
                if (!o.granted() && defect == Defect.HELD_ACQUIRE_READS_AGAIN) {
                  trip("read");
                }
                return o;
              });
    }

    @Override
    public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
      trip("extend");
      return delegate.extend(key, owner, lease);
    }

    @Override
    public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
      trip("release");
      if (defect == Defect.SECOND_COUNTER_SEES_MORE) {
        server.add("publish");
      }
      return delegate.release(key, owner);
    }

    @Override
    public CompletableFuture<ReplaceOutcome> replace(
        String key, String expectedOwner, String newOwner, String newData, Duration lease) {
      trip("replace");
      return delegate.replace(key, expectedOwner, newOwner, newData, lease);
    }

    @Override
    public CompletableFuture<Optional<LeaseRecord>> read(String key) {
      trip("read");
      return delegate.read(key);
    }

    @Override
    public CompletableFuture<BackendHealth> checkHealth() {
      trip("ping");
      return CompletableFuture.completedFuture(BackendHealth.healthy("in memory"));
    }

    @Override
    public CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait) {
      if (defect == Defect.WAITS_SEND_COMMANDS) {
        trip("subscribe");
      }
      return memory.awaitRelease(key, maxWait);
    }
  }

  abstract static class BrokenSuite extends RoundTripBudgetSuite {
    final InMemoryLockBackend shared = new InMemoryLockBackend();

    abstract Defect defect();

    @Override
    protected RoundTripBudget budget() {
      return RoundTripBudget.everyCase(1).with(Case.AWAIT_RELEASE, 0);
    }

    @Override
    protected CountedBackend newCountedBackend() {
      Counted c = new Counted(shared, defect());
      return new CountedBackend(c, List.of(c.client, c.server));
    }

    @Override
    protected LockBackend newBackend() {
      return new ForwardingLockBackend(shared);
    }
  }

  static class Correct extends BrokenSuite {
    @Override
    Defect defect() {
      return Defect.NONE;
    }
  }

  static class CountsNothing extends BrokenSuite {
    @Override
    Defect defect() {
      return Defect.COUNTS_NOTHING;
    }
  }

  static class HeldAcquireReadsAgain extends BrokenSuite {
    @Override
    Defect defect() {
      return Defect.HELD_ACQUIRE_READS_AGAIN;
    }
  }

  static class WaitsSendCommands extends BrokenSuite {
    @Override
    Defect defect() {
      return Defect.WAITS_SEND_COMMANDS;
    }
  }

  static class SecondCounterSeesMore extends BrokenSuite {
    @Override
    Defect defect() {
      return Defect.SECOND_COUNTER_SEES_MORE;
    }
  }
}
