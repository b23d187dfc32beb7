package io.hostloom.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.integration.HostLoomLeaderInitiator.TermContext;
import io.hostloom.leadership.LeadershipOptions;
import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.testing.CountingLockBackend.Operation;
import io.hostloom.locking.testing.FaultInjectingLockBackend;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ApplicationEvent;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.leader.event.AbstractLeaderEvent;
import org.springframework.integration.leader.event.OnGrantedEvent;
import org.springframework.integration.leader.event.OnRevokedEvent;

/**
 * Two initiators (each its own lock, as two processes) over one in-memory backend, real time. A
 * lease of minutes shows that a hand-over came from a release, not from an expiry.
 */
class HostLoomLeaderInitiatorTest {
  private static final LeadershipOptions LONG_LEASE =
      LeadershipOptions.builder()
          .lease(Duration.ofMinutes(4))
          .renewInterval(Duration.ofMillis(200))
          .retryInterval(Duration.ofMillis(100))
          .jitter(Duration.ofMillis(20))
          .build();

  private final InMemoryLockBackend backend = new InMemoryLockBackend();
  private final List<DistributedLock> locks = new ArrayList<>();
  private final List<HostLoomLeaderInitiator> initiators = new ArrayList<>();
  private final String role = "role-" + System.nanoTime();

  /** What one node saw: candidate callbacks and events, with the term. */
  private static final class Node {
    final List<String> calls = new CopyOnWriteArrayList<>();
    final List<ApplicationEvent> events = new CopyOnWriteArrayList<>();
    HostLoomLeaderInitiator initiator;
    FaultInjectingLockBackend faults;

    long grantedTerm() {
      for (int i = events.size() - 1; i >= 0; i--) {
        if (events.get(i) instanceof OnGrantedEvent g) {
          return ((TermContext) g.getContext()).term();
        }
      }
      return 0;
    }
  }

  private Node node(String id, LeadershipOptions options) {
    Node n = new Node();
    n.faults = new FaultInjectingLockBackend(backend);
    DistributedLock lock = DistributedLock.builder(LockingOptions.of("lead"), n.faults).build();
    locks.add(lock);
    n.initiator =
        new HostLoomLeaderInitiator(
            lock,
            new DefaultCandidate(id, role) {
              @Override
              public void onGranted(Context ctx) {
                n.calls.add("granted:" + ((TermContext) ctx).term() + ":" + ctx.isLeader());
              }

              @Override
              public void onRevoked(Context ctx) {
                n.calls.add("revoked:" + ((TermContext) ctx).term());
              }
            },
            options);
    n.initiator.setApplicationEventPublisher(e -> n.events.add((ApplicationEvent) e));
    initiators.add(n.initiator);
    return n;
  }

  @AfterEach
  void stop() {
    initiators.forEach(HostLoomLeaderInitiator::stop);
    locks.forEach(DistributedLock::close);
  }

  @Test
  void oneLeadsAndTheContextAndEventsCarryTheTerm() {
    Node a = node("a", LONG_LEASE);
    Node b = node("b", LONG_LEASE);
    a.initiator.start();
    await(() -> a.initiator.getContext().isLeader());
    b.initiator.start();
    TestTiming.pass(Duration.ofMillis(500)); // b keeps trying meanwhile
    assertThat(b.initiator.getContext().isLeader()).isFalse();
    assertThat(b.calls).isEmpty();
    long term = a.initiator.getContext().term();
    assertThat(term).isPositive();
    await(() -> a.grantedTerm() == term);
    assertThat(a.calls).containsExactly("granted:" + term + ":true");
    AbstractLeaderEvent granted = (AbstractLeaderEvent) a.events.get(0);
    assertThat(granted.getRole()).isEqualTo(role);
    assertThat(granted.getSource()).isSameAs(a.initiator);
  }

  @Test
  void yieldHandsOverAtOnceWithALargerTerm() {
    // a waits longer than b before trying again, so b is the one to take over
    Node a = node("a", LONG_LEASE.toBuilder().retryInterval(Duration.ofMinutes(1)).build());
    Node b = node("b", LONG_LEASE);
    a.initiator.start();
    await(() -> a.initiator.getContext().isLeader());
    b.initiator.start();
    TermContext first = a.initiator.getContext();
    first.yield();
    await(() -> b.initiator.getContext().isLeader()); // a released: the 4 min lease did not run out
    assertThat(first.isLeader()).isFalse();
    assertThat(b.initiator.getContext().term()).isGreaterThan(first.term());
    await(() -> a.events.stream().anyMatch(OnRevokedEvent.class::isInstance));
    assertThat(a.calls)
        .containsExactly("granted:" + first.term() + ":true", "revoked:" + first.term());
  }

  @Test
  void aGracefulStopReleasesSoTheSuccessorLeadsAndARestartedInitiatorLeadsAgain() {
    Node a = node("a", LONG_LEASE);
    Node b = node("b", LONG_LEASE);
    a.initiator.start();
    await(() -> a.initiator.getContext().isLeader());
    b.initiator.start();
    long first = a.initiator.getContext().term();
    await(() -> a.grantedTerm() == first); // the candidate was told, while it led
    a.initiator.stop();
    assertThat(a.initiator.isRunning()).isFalse();
    assertThat(a.calls).containsExactly("granted:" + first + ":true", "revoked:" + first);
    await(() -> b.initiator.getContext().isLeader());
    a.initiator.start(); // a new elector: a candidate again
    assertThat(a.initiator.isRunning()).isTrue();
    b.initiator.stop();
    await(() -> a.initiator.getContext().isLeader());
    assertThat(a.initiator.getContext().term()).isGreaterThan(first);
  }

  @Test
  void aLeaderThatLostItsLeaseGivesItUpAndCanLeadAgain() {
    LeadershipOptions shortLease =
        LONG_LEASE.toBuilder()
            .lease(TestTiming.scaled(Duration.ofSeconds(2)))
            .renewInterval(Duration.ofMillis(200))
            .build();
    Node a = node("a", shortLease);
    Node b = node("b", shortLease.toBuilder().retryInterval(Duration.ofMillis(50)).build());
    a.initiator.start();
    await(() -> a.initiator.getContext().isLeader());
    long first = a.initiator.getContext().term();
    b.initiator.start();
    a.faults.failAll(
        LockFailureKind.UNAVAILABLE, Operation.EXTEND); // renewals fail: lease runs out
    await(() -> a.calls.contains("revoked:" + first));
    await(() -> b.initiator.getContext().isLeader());
    a.faults.heal();
    b.initiator.stop();
    await(() -> a.initiator.getContext().isLeader()); // not stuck: a leads again, same process
    assertThat(a.initiator.getContext().term()).isGreaterThan(b.grantedTerm());
  }

  private static void await(BooleanSupplier condition) {
    TestTiming.await(condition, Duration.ofSeconds(20));
  }
}
