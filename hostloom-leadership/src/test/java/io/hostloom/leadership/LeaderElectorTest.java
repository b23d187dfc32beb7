package io.hostloom.leadership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.leadership.ElectionFixture.Instance;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.testing.CountingLockBackend.Operation;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

/** The elector's loop on the manual clock, over the in-memory backend (defaults: 15/5/2 s). */
class LeaderElectorTest {
  private static final Duration SECOND = Duration.ofSeconds(1);

  private static Instance noJitter(ElectionFixture f) {
    return f.add(
        LockingOptions.of(ElectionFixture.NAMESPACE),
        LeadershipOptions.DEFAULTS,
        b -> b.jitterSource(() -> 0.0));
  }

  /** One instance, started and leading. */
  private static Instance leading(ElectionFixture f) {
    Instance a = noJitter(f);
    a.elector().start();
    f.clock.runDueTasks();
    return a;
  }

  private static List<Instance> startThree(ElectionFixture f) {
    List<Instance> all = List.of(noJitter(f), noJitter(f), noJitter(f));
    all.forEach(i -> i.elector().start());
    f.clock.runDueTasks();
    return all;
  }

  @Test
  void exactlyOneOfThreeLeadsAndKeepsItsTermWhileRenewing() {
    try (ElectionFixture f = new ElectionFixture()) {
      startThree(f);
      assertThat(f.leaders()).hasSize(1);
      Instance leader = f.leaders().get(0);
      long term = leader.elector().leadership().orElseThrow().term();
      assertThat(f.record().orElseThrow().fencingToken()).isEqualTo(term);
      for (int s = 0; s < 120; s++) {
        f.advance(SECOND);
        assertThat(f.leaders()).containsExactly(leader);
      }
      assertThat(leader.elector().leadership().orElseThrow().term()).isEqualTo(term);
      assertThat(leader.renewals()).hasSize(24).containsOnly(RenewalOutcome.EXTENDED);
      assertThat(leader.types()).containsExactly(ChangeType.ACQUIRED);
      for (Instance i : f.instances) {
        if (i != leader) {
          // attempts at 0, 2, ..., 120 s, every one refused
          assertThat(i.backend().calls(Operation.ACQUIRE)).isEqualTo(61);
          assertThat(i.changes()).isEmpty();
          assertThat(i.elector().leadershipSignal()).isDone();
        }
      }
    }
  }

  @Test
  void aLeaderRenewsPastTheLocksMaxHold() {
    try (ElectionFixture f = new ElectionFixture()) {
      LockingOptions shortHold =
          LockingOptions.builder()
              .namespace(ElectionFixture.NAMESPACE)
              .maxHold(Duration.ofSeconds(20))
              .build();
      Instance a = f.add(shortHold, LeadershipOptions.DEFAULTS, b -> b);
      a.elector().start();
      f.clock.runDueTasks();
      long term = a.elector().leadership().orElseThrow().term();
      f.advance(Duration.ofMinutes(5));
      assertThat(a.elector().isLeader()).isTrue();
      assertThat(a.renewals()).hasSize(60).containsOnly(RenewalOutcome.EXTENDED);
      LeaseRecord r = f.record().orElseThrow();
      assertThat(r.fencingToken()).isEqualTo(term);
      assertThat(r.remaining()).isEqualTo(Duration.ofSeconds(15));
    }
  }

  @Test
  void aRefusedRenewalEndsTheTermAndTheSuccessorKeepsLeading() {
    try (ElectionFixture f = new ElectionFixture()) {
      startThree(f);
      Instance old = f.leaders().get(0);
      Leadership oldTerm = old.elector().leadership().orElseThrow();
      CompletableFuture<Void> signal = old.elector().leadershipSignal();
      f.advance(SECOND);
      // the backend forgets the old leader's grant (as a failover or an operator would)
      LeaseRecord r = f.record().orElseThrow();
      assertThat(f.memory.release(ElectionFixture.BACKEND_KEY, r.owner()).join().released())
          .isTrue();
      f.advance(SECOND); // t = 2 s: a follower's attempt is granted
      List<Instance> leaders = f.leaders();
      assertThat(leaders).hasSize(2); // the old one does not know yet: lease-based, not consensus
      Instance successor = leaders.stream().filter(i -> i != old).findFirst().orElseThrow();
      long newTerm = successor.elector().leadership().orElseThrow().term();
      assertThat(newTerm).isGreaterThan(oldTerm.term());

      f.advance(Duration.ofSeconds(3)); // t = 5 s: the old leader's renewal is refused
      assertThat(old.renewals()).containsExactly(RenewalOutcome.REFUSED);
      assertThat(old.elector().isLeader()).isFalse();
      assertThat(signal).isDone();
      assertThat(oldTerm.isCurrent()).isFalse();
      assertThat(old.changes().get(1))
          .extracting(LeadershipChange::type, LeadershipChange::term, LeadershipChange::detail)
          .containsExactly(ChangeType.LOST, oldTerm.term(), "extend_refused");
      assertThat(old.log().count(Level.WARN, "3201")).isEqualTo(1);

      f.advance(Duration.ofSeconds(60));
      assertThat(f.leaders()).containsExactly(successor);
      assertThat(f.record().orElseThrow().fencingToken()).isEqualTo(newTerm);
    }
  }

  @Test
  void resignReleasesAtOnceAndWaitsOneRetryIntervalBeforeTryingAgain() {
    try (ElectionFixture f = new ElectionFixture()) {
      startThree(f);
      Instance a = f.leaders().get(0);
      f.advance(SECOND);
      long attemptsBefore = a.backend().calls(Operation.ACQUIRE);
      assertThat(a.elector().resign()).isTrue();
      assertThat(a.elector().resign()).isFalse();
      assertThat(a.types()).containsExactly(ChangeType.ACQUIRED, ChangeType.RESIGNED);
      assertThat(a.elector().leadershipSignal()).isDone();
      assertThat(f.record()).isEmpty();
      assertThat(a.elector().status()).isEqualTo(LeaderStatus.FOLLOWER);

      f.advance(SECOND); // t = 2 s: a follower takes over; the resigned one has not tried yet
      assertThat(f.leaders()).hasSize(1).doesNotContain(a);
      assertThat(a.backend().calls(Operation.ACQUIRE)).isEqualTo(attemptsBefore);
      f.advance(SECOND); // t = 3 s: one retry interval after resigning
      assertThat(a.backend().calls(Operation.ACQUIRE)).isEqualTo(attemptsBefore + 1);
      assertThat(a.elector().isLeader()).isFalse();
    }
  }

  @Test
  void stopReleasesSoAFollowerLeadsAtItsNextAttemptAndTheStoppedElectorNeverRunsAgain() {
    try (ElectionFixture f = new ElectionFixture()) {
      startThree(f);
      Instance a = f.leaders().get(0);
      Leadership term = a.elector().leadership().orElseThrow();
      f.advance(SECOND);
      a.elector().stop();
      assertThat(f.record()).isEmpty();
      assertThat(a.types()).containsExactly(ChangeType.ACQUIRED, ChangeType.STOPPED);
      assertThat(term.ended().join().type()).isEqualTo(ChangeType.STOPPED);
      assertThat(a.elector().status()).isEqualTo(LeaderStatus.STOPPED);
      assertThatThrownBy(a.elector()::start).isInstanceOf(IllegalStateException.class);
      assertThat(a.elector().awaitLeadershipAsync()).isCompletedExceptionally();
      long calls = a.backend().calls(Operation.ACQUIRE) + a.backend().calls(Operation.EXTEND);

      f.advance(SECOND);
      assertThat(f.leaders()).hasSize(1).doesNotContain(a);
      f.advance(Duration.ofMinutes(1));
      assertThat(a.backend().calls(Operation.ACQUIRE) + a.backend().calls(Operation.EXTEND))
          .isEqualTo(calls);
      a.elector().stop(); // idempotent
      assertThat(a.types()).hasSize(2);
    }
  }

  @Test
  void aTimedOutRenewalIsRetriedBeforeTheLeaseEndsSoTheTermSurvives() {
    try (ElectionFixture f = new ElectionFixture()) {
      Instance a = leading(f);
      Leadership term = a.elector().leadership().orElseThrow();
      // the renewal at 5 s is applied but its answer is a timeout that arrives at 10 s
      a.backend()
          .holdReplies(Operation.EXTEND)
          .applyThenFail(1, LockFailureKind.TIMEOUT, Operation.EXTEND);
      f.advance(Duration.ofSeconds(10));
      a.backend().deliverReplies();
      assertThat(a.renewals()).containsExactly(RenewalOutcome.FAILED);
      f.advance(Duration.ofSeconds(10)); // the retry at 12.5 s, not 15 s (the lease end)
      assertThat(a.renewals()).startsWith(RenewalOutcome.FAILED, RenewalOutcome.EXTENDED);
      assertThat(a.elector().isLeader()).isTrue();
      assertThat(term.isCurrent()).isTrue();
      assertThat(a.types()).containsExactly(ChangeType.ACQUIRED);
    }
  }

  @Test
  void atRenewIntervalHalfTheLeaseOneFailedRenewalDoesNotEndTheTerm() {
    try (ElectionFixture f = new ElectionFixture()) {
      LeadershipOptions half =
          LeadershipOptions.builder()
              .lease(Duration.ofSeconds(10))
              .renewInterval(Duration.ofSeconds(5))
              .build();
      Instance a = f.add(LockingOptions.of(ElectionFixture.NAMESPACE), half, b -> b);
      a.elector().start();
      f.clock.runDueTasks();
      f.shared.failNext(1, LockFailureKind.UNAVAILABLE, Operation.EXTEND);
      f.advance(Duration.ofSeconds(30));
      assertThat(a.renewals()).first().isEqualTo(RenewalOutcome.FAILED);
      assertThat(a.types()).containsExactly(ChangeType.ACQUIRED);
      assertThat(a.elector().isLeader()).isTrue();
    }
  }

  @Test
  void afterAPausePastTheLeaseTheInstanceNoLongerLeadsBeforeAnyTimerRuns() {
    try (ElectionFixture f = new ElectionFixture()) {
      Instance a = leading(f);
      Leadership term = a.elector().leadership().orElseThrow();
      f.timers.stall(); // the timer thread is stuck: no renewal, no expiry timer
      f.advance(Duration.ofSeconds(16));
      assertThat(term.isCurrent()).isFalse();
      assertThat(a.elector().isLeader()).isFalse();
      assertThat(a.types()).containsExactly(ChangeType.ACQUIRED, ChangeType.LOST);
      f.timers.resume();
      assertThat(a.types()).containsExactly(ChangeType.ACQUIRED, ChangeType.LOST);
    }
  }

  @Test
  void aLossReportedForAnEndedTermLeavesTheNextTermAlone() {
    try (ElectionFixture f = new ElectionFixture()) {
      Instance a = leading(f);
      LeaseRecord first = f.record().orElseThrow();
      f.memory.release(ElectionFixture.BACKEND_KEY, first.owner()).join();
      a.backend().holdReplies(Operation.RELEASE);
      assertThat(a.elector().resign()).isTrue(); // its release will be refused: a late loss
      f.advance(Duration.ofSeconds(2)); // one retry interval: a new term
      long second = a.elector().leadership().orElseThrow().term();
      assertThat(second).isGreaterThan(first.fencingToken());
      a.backend().deliverReplies(); // the first term's handle now reports release_refused
      assertThat(a.elector().isLeader()).isTrue();
      assertThat(a.elector().leadership().orElseThrow().term()).isEqualTo(second);
      assertThat(a.types())
          .containsExactly(ChangeType.ACQUIRED, ChangeType.RESIGNED, ChangeType.ACQUIRED);
    }
  }

  @Test
  void stopRightAfterALossWaitsForThatLossesRelease() {
    try (ElectionFixture f = new ElectionFixture()) {
      Instance a = leading(f);
      LeaseRecord r = f.record().orElseThrow();
      f.memory.release(ElectionFixture.BACKEND_KEY, r.owner()).join();
      a.backend().holdReplies(Operation.RELEASE);
      f.advance(Duration.ofSeconds(5)); // the renewal is refused: LOST, its release unanswered
      assertThat(a.types()).containsExactly(ChangeType.ACQUIRED, ChangeType.LOST);
      CompletableFuture<Void> stopped = a.elector().stopAsync();
      assertThat(stopped).isNotDone();
      a.backend().deliverReplies();
      assertThat(stopped).isDone();
    }
  }

  @Test
  void anOutageEndsLeadershipAtTheLeaseEndNobodyLeadsUntilItEndsAndItIsLoggedOnce() {
    try (ElectionFixture f = new ElectionFixture()) {
      startThree(f);
      Instance old = f.leaders().get(0);
      long oldTerm = old.elector().leadership().orElseThrow().term();
      f.advance(SECOND);
      f.shared.failAll(LockFailureKind.UNAVAILABLE);
      f.advance(Duration.ofSeconds(13)); // t = 14 s: renewals at 5, 10, 12.5, 13.75 s failed
      assertThat(f.leaders()).containsExactly(old);
      assertThat(old.renewals()).hasSize(4).containsOnly(RenewalOutcome.FAILED);
      assertThat(old.log().count(Level.WARN, "3206")).isEqualTo(1);
      f.advance(SECOND); // t = 15 s: the lease ran out on the local clock
      assertThat(old.types()).containsExactly(ChangeType.ACQUIRED, ChangeType.LOST);
      for (int s = 0; s < 30; s++) {
        f.advance(SECOND);
        assertThat(f.leaders()).isEmpty();
      }
      for (Instance i : f.instances) {
        assertThat(i.log().count(Level.WARN, "3204")).isEqualTo(1);
        assertThat(i.elector().describe().backendReachable()).isFalse();
      }
      f.shared.heal();
      f.advance(Duration.ofSeconds(2));
      assertThat(f.leaders()).hasSize(1);
      assertThat(f.leaders().get(0).elector().leadership().orElseThrow().term())
          .isGreaterThan(oldTerm);
      f.advance(Duration.ofSeconds(30));
      assertThat(f.leaders()).hasSize(1);
      for (Instance i : f.instances) {
        assertThat(i.log().count("3205")).isEqualTo(1);
        assertThat(i.elector().describe().backendReachable()).isTrue();
      }
    }
  }

  @Test
  void listenersSeeEveryChangeInOrderWithTermsThatStrictlyIncrease() {
    try (ElectionFixture f = new ElectionFixture()) {
      Instance a = noJitter(f);
      List<LeadershipChange> seen = new CopyOnWriteArrayList<>();
      a.elector()
          .addListener(
              new LeadershipListener() {
                @Override
                public void onChange(LeadershipChange change) {
                  throw new IllegalStateException("a broken listener");
                }
              });
      a.elector()
          .addListener(
              new LeadershipListener() {
                @Override
                public void onChange(LeadershipChange change) {
                  seen.add(change);
                }
              });
      a.elector().start();
      f.clock.runDueTasks(); // ACQUIRED
      a.elector().resign(); // RESIGNED
      f.advance(Duration.ofSeconds(2)); // ACQUIRED
      a.backend().failAll(LockFailureKind.TIMEOUT, Operation.EXTEND);
      f.advance(Duration.ofSeconds(15)); // LOST at the lease end
      a.backend().heal();
      f.advance(Duration.ofSeconds(2)); // ACQUIRED
      a.elector().stop(); // STOPPED

      assertThat(seen)
          .extracting(LeadershipChange::type)
          .containsExactly(
              ChangeType.ACQUIRED,
              ChangeType.RESIGNED,
              ChangeType.ACQUIRED,
              ChangeType.LOST,
              ChangeType.ACQUIRED,
              ChangeType.STOPPED);
      assertThat(a.changes()).isEqualTo(seen);
      for (int k = 0; k < seen.size(); k += 2) {
        assertThat(seen.get(k + 1).term()).isEqualTo(seen.get(k).term());
        if (k > 0) {
          assertThat(seen.get(k).term()).isGreaterThan(seen.get(k - 1).term());
        }
      }
      assertThat(a.log().count(Level.WARN, "3207")).isEqualTo(6);
    }
  }

  @Test
  void awaitLeadershipCompletesOnTheGrantAndAtOnceWhenLeading() throws Exception {
    try (ElectionFixture f = new ElectionFixture()) {
      Instance a = noJitter(f);
      assertThat(a.elector().awaitLeadership(Duration.ZERO)).isEmpty();
      CompletableFuture<Leadership> waiting = a.elector().awaitLeadershipAsync();
      assertThat(waiting).isNotDone();
      a.elector().start();
      f.clock.runDueTasks();
      assertThat(waiting).isCompleted();
      assertThat(a.elector().awaitLeadership(Duration.ofDays(1))).contains(waiting.join());
      a.elector().resign();
      CompletableFuture<Leadership> again = a.elector().awaitLeadershipAsync();
      a.elector().stop();
      assertThat(again).isCompletedExceptionally();
      assertThatThrownBy(() -> a.elector().awaitLeadership(Duration.ofDays(1)))
          .isInstanceOf(IllegalStateException.class);
    }
  }

  @Test
  void theProbeDescribesWithoutContactingTheBackend() {
    try (ElectionFixture f = new ElectionFixture()) {
      Instance a = noJitter(f);
      LeadershipDescription d = a.elector().describe();
      assertThat(d.status()).isEqualTo(LeaderStatus.NOT_STARTED);
      assertThat(d.key()).isEqualTo("leader:billing");
      assertThat(d.lease()).isEqualTo(Duration.ofSeconds(15));
      assertThat(d.options()).isEqualTo(LeadershipOptions.DEFAULTS);
      assertThat(f.shared.calls(Operation.READ) + f.shared.calls(Operation.ACQUIRE)).isZero();
      a.elector().start();
      f.clock.runDueTasks();
      d = a.elector().describe();
      assertThat(d.status()).isEqualTo(LeaderStatus.LEADER);
      assertThat(d.term()).isEqualTo(f.record().orElseThrow().fencingToken());
    }
  }

  @Test
  void overADisabledLockEveryElectorLeadsWithTermZero() {
    try (ElectionFixture f = new ElectionFixture()) {
      LockingOptions disabled =
          LockingOptions.builder().namespace(ElectionFixture.NAMESPACE).enabled(false).build();
      Instance a = f.add(disabled, LeadershipOptions.DEFAULTS, b -> b);
      Instance b = f.add(disabled, LeadershipOptions.DEFAULTS, x -> x);
      a.elector().start();
      b.elector().start();
      f.clock.runDueTasks();
      assertThat(f.leaders()).containsExactly(a, b);
      assertThat(a.elector().leadership().orElseThrow().term()).isZero();
    }
  }
}
