package io.hostloom.leadership;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One renewal of a leader's lease, as {@link LeadershipListener#onRenewal} sees it.
 *
 * @param role the role
 * @param term the term whose lease was renewed
 * @param outcome how it ended
 * @param took from the request to the answer, on the lock's clock
 * @param leaseEnd the local estimate of the lease end after this renewal (unchanged by a failure)
 */
public record LeadershipRenewal(
    String role, long term, RenewalOutcome outcome, Duration took, Instant leaseEnd) {
  public LeadershipRenewal {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(took, "took");
    Objects.requireNonNull(leaseEnd, "leaseEnd");
  }
}
