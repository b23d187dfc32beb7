package io.hostloom.reactor;

import io.hostloom.leadership.LeaderElector;
import io.hostloom.leadership.Leadership;
import io.hostloom.leadership.LeadershipChange;
import io.hostloom.leadership.LeadershipListener;
import java.util.Objects;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code Mono}/{@code Flux} forms of a {@link LeaderElector}, without blocking: the elector runs
 * the election (start and stop it as usual); these only observe it. Needs {@code
 * hostloom-leadership} on the class path.
 */
public final class ReactiveLeadership {
  private ReactiveLeadership() {}

  /**
   * The elector's leadership changes from subscription on (elected, lost, resigned, ...), in the
   * order the elector reports them; the listener is removed when the subscription ends. A
   * subscriber that cannot keep up buffers changes (they are few).
   */
  public static Flux<LeadershipChange> changes(LeaderElector elector) {
    Objects.requireNonNull(elector, "elector");
    return Flux.create(
        sink -> {
          LeadershipListener listener =
              new LeadershipListener() {
                @Override
                public void onChange(LeadershipChange change) {
                  sink.next(change);
                }
              };
          elector.addListener(listener);
          sink.onDispose(() -> elector.removeListener(listener));
        });
  }

  /**
   * Emits the current term once this instance leads ({@link LeaderElector#awaitLeadershipAsync});
   * cancelling stops only this wait, not the election.
   */
  public static Mono<Leadership> awaitLeadership(LeaderElector elector) {
    Objects.requireNonNull(elector, "elector");
    return Mono.fromFuture(elector::awaitLeadershipAsync);
  }
}
