package io.hostloom.leadership.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.leadership.ChangeType;
import io.hostloom.leadership.Leadership;
import io.hostloom.leadership.LeadershipChange;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ScriptedLeaderElectionTest {

  @Test
  void holdLoseAndFailNextDriveTheConsumerContract() throws Exception {
    ScriptedLeaderElection e = new ScriptedLeaderElection("billing");
    CompletableFuture<Leadership> waiting = e.awaitLeadershipAsync();
    assertThat(e.leadershipSignal()).isDone();

    Leadership first = e.hold();
    assertThat(waiting.join()).isSameAs(first);
    assertThat(first.term()).isEqualTo(1);
    assertThat(e.awaitLeadership(Duration.ZERO)).contains(first);
    CompletableFuture<Void> signal = e.leadershipSignal();
    assertThat(signal).isNotDone();

    assertThat(e.lose()).isTrue();
    assertThat(signal).isDone();
    assertThat(first.isCurrent()).isFalse();

    e.failNext();
    assertThatThrownBy(e::hold).isInstanceOf(IllegalStateException.class);
    assertThat(e.describe().backendReachable()).isFalse();
    assertThat(e.isLeader()).isFalse();
    assertThatThrownBy(() -> e.hold(1)).isInstanceOf(IllegalArgumentException.class);

    Leadership second = e.hold(5);
    assertThat(e.resign()).isTrue();
    assertThat(e.hold().term()).isEqualTo(6);
    e.stop();
    assertThat(second.ended().join().type()).isEqualTo(ChangeType.RESIGNED);
    assertThat(e.changes())
        .extracting(LeadershipChange::type)
        .containsExactly(
            ChangeType.ACQUIRED,
            ChangeType.LOST,
            ChangeType.ACQUIRED,
            ChangeType.RESIGNED,
            ChangeType.ACQUIRED,
            ChangeType.STOPPED);
  }
}
