package io.hostloom.locking.spi;

import java.util.Optional;

/**
 * The answer to {@link LockBackend#acquire}: granted with a fencing token, or held by another
 * owner.
 *
 * @param granted whether the caller's owner holds the lease now
 * @param fencingToken the grant's fencing token when granted; {@code 0} otherwise
 * @param holder when not granted, the current holder's record as the backend saw it in the same
 *     atomic operation (so a WOPI host can answer 409 with the winner's lock id); empty when
 *     granted
 */
public record AcquireOutcome(boolean granted, long fencingToken, Optional<LeaseRecord> holder) {
  public AcquireOutcome {
    if (granted && fencingToken <= 0) {
      throw new IllegalArgumentException("a grant needs a positive fencing token: " + fencingToken);
    }
    if (granted && holder.isPresent()) {
      throw new IllegalArgumentException("a grant has no other holder");
    }
  }

  public static AcquireOutcome granted(long fencingToken) {
    return new AcquireOutcome(true, fencingToken, Optional.empty());
  }

  /** Held by {@code holder}; never null (a holder is always there when a grant is refused). */
  public static AcquireOutcome held(LeaseRecord holder) {
    return new AcquireOutcome(false, 0, Optional.of(holder));
  }
}
