package io.hostloom.springboot.leadership;

import io.hostloom.leadership.LeaderElection;
import io.hostloom.leadership.LeaderStatus;
import io.hostloom.leadership.LeadershipDescription;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;

/**
 * One role's health from the elector's probe (no backend call): {@code UP} with {@code leader} or
 * {@code follower}, {@code DOWN} when the backend could not be reached at the last attempt or
 * renewal ({@code backend down}), {@code OUT_OF_SERVICE} when the elector is not running.
 */
public final class LeadershipHealthIndicator extends AbstractHealthIndicator {
  private final LeaderElection election;

  public LeadershipHealthIndicator(LeaderElection election) {
    super("leadership health check failed");
    this.election = election;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    LeadershipDescription d = election.describe();
    builder.withDetail("role", d.role());
    if (d.status() == LeaderStatus.NOT_STARTED || d.status() == LeaderStatus.STOPPED) {
      builder.status(Status.OUT_OF_SERVICE).withDetail("status", d.status().name().toLowerCase());
    } else if (!d.backendReachable()) {
      builder.down().withDetail("status", "backend down");
    } else if (d.status() == LeaderStatus.LEADER) {
      builder.up().withDetail("status", "leader").withDetail("term", d.term());
    } else {
      builder.up().withDetail("status", "follower");
    }
  }
}
