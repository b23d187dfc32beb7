package io.hostloom.leadership;

import java.time.Instant;
import java.util.Objects;

/**
 * One change of leadership of one elector, as listeners see it.
 *
 * @param role the elector's role
 * @param type what happened
 * @param term the term that started ({@link ChangeType#ACQUIRED}) or ended (the others)
 * @param at when the elector noticed, on its clock's wall time
 * @param detail why, for {@link ChangeType#LOST}: the lock's {@code LossReason} tag ({@code
 *     extend_refused} for a refused renewal, {@code expired} when renewals failed until the lease
 *     ran out, ...); empty otherwise
 */
public record LeadershipChange(String role, ChangeType type, long term, Instant at, String detail) {
  public LeadershipChange {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(detail, "detail");
  }
}
