package io.hostloom.micrometer;

import io.hostloom.leadership.LeaderElection;
import io.hostloom.leadership.LeadershipChange;
import io.hostloom.leadership.LeadershipListener;
import io.hostloom.leadership.LeadershipRenewal;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Objects;

/**
 * Turns a leader elector's changes and renewals into meters. Pass it to {@code
 * LeaderElector.builder(lock, role).listener(...)}; one instance can serve many roles (one elector
 * per role and registry: the gauge of a second elector of the same role is not registered).
 *
 * <ul>
 *   <li>{@value #IS_LEADER} gauge: 1 while the elector leads, else 0
 *   <li>{@value #CHANGES} counter, tag {@value #REASON_TAG} = acquired | lost | resigned | stopped
 *   <li>{@value #RENEW_DURATION} timer, tag {@value #OUTCOME_TAG} = extended | refused | failed
 * </ul>
 *
 * Every meter carries {@value #ROLE_TAG}. Callbacks only touch meters: thread-safe, non-blocking.
 */
public final class LeaderMetricsListener implements LeadershipListener {
  public static final String IS_LEADER = "hostloom.leader.is_leader";
  public static final String CHANGES = "hostloom.leader.changes";
  public static final String RENEW_DURATION = "hostloom.leader.renew.duration";
  public static final String ROLE_TAG = "hostloom.leader.role";
  public static final String REASON_TAG = "hostloom.leader.reason";
  public static final String OUTCOME_TAG = "hostloom.leader.outcome";

  private final MeterRegistry meters;

  public LeaderMetricsListener(MeterRegistry meters) {
    this.meters = Objects.requireNonNull(meters, "meters");
  }

  @Override
  public void onRegistered(LeaderElection election) {
    // a strong reference: an elector lives as long as its application; a stopped one reads 0
    Gauge.builder(IS_LEADER, election, e -> e.isLeader() ? 1 : 0)
        .tag(ROLE_TAG, election.role())
        .strongReference(true)
        .description("1 while this instance leads the role")
        .register(meters);
  }

  @Override
  public void onChange(LeadershipChange change) {
    Counter.builder(CHANGES)
        .tag(ROLE_TAG, change.role())
        .tag(REASON_TAG, change.type().tagValue())
        .description("leadership changes of this instance")
        .register(meters)
        .increment();
  }

  @Override
  public void onRenewal(LeadershipRenewal renewal) {
    Timer.builder(RENEW_DURATION)
        .tag(ROLE_TAG, renewal.role())
        .tag(OUTCOME_TAG, renewal.outcome().tagValue())
        .description("round trip of each lease renewal of a leader")
        .register(meters)
        .record(renewal.took());
  }
}
