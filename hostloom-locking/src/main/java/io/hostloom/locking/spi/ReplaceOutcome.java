package io.hostloom.locking.spi;

import java.util.Optional;

/**
 * The answer to {@link LockBackend#replace}.
 *
 * @param replaced whether the swap happened
 * @param fencingToken the fencing token of the new grant when replaced, {@code 0} otherwise
 * @param current when not replaced, the live record that made the swap fail (another owner), or
 *     empty when the key was free or expired
 */
public record ReplaceOutcome(boolean replaced, long fencingToken, Optional<LeaseRecord> current) {
  public static ReplaceOutcome replaced(long fencingToken) {
    return new ReplaceOutcome(true, fencingToken, Optional.empty());
  }

  public static ReplaceOutcome mismatch(LeaseRecord current) {
    return new ReplaceOutcome(false, 0, Optional.of(current));
  }

  public static ReplaceOutcome absent() {
    return new ReplaceOutcome(false, 0, Optional.empty());
  }
}
