package io.hostloom.leadership;

import java.time.Duration;
import java.util.Objects;

/**
 * A probe's view of one election, built without contacting the backend.
 *
 * @param role the role
 * @param key the lock key, without the lock's namespace ({@code leader:<role>})
 * @param status where the elector is
 * @param term the current term, or {@code 0} when not leading
 * @param backendReachable {@code false} while the last attempt or renewal failed to reach the
 *     backend (nobody can be elected through this elector until it answers again)
 * @param options lease and cadence
 */
public record LeadershipDescription(
    String role,
    String key,
    LeaderStatus status,
    long term,
    boolean backendReachable,
    LeadershipOptions options) {
  public LeadershipDescription {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(options, "options");
  }

  /** The lease requested on every grant and renewal. */
  public Duration lease() {
    return options.lease();
  }
}
