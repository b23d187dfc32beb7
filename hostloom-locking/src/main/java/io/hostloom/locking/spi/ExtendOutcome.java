package io.hostloom.locking.spi;

import java.util.Optional;

/**
 * The answer to {@link LockBackend#extend}: extended, or refused together with what refused it, as
 * the backend saw it in the same atomic operation.
 *
 * @param extended whether the owner's live lease now ends at now + lease
 * @param holder when refused, another owner's live record (with its data, token and time left);
 *     empty when refused because the key was free or expired, and empty when extended
 */
public record ExtendOutcome(boolean extended, Optional<LeaseRecord> holder) {
  private static final ExtendOutcome EXTENDED = new ExtendOutcome(true, Optional.empty());
  private static final ExtendOutcome ABSENT = new ExtendOutcome(false, Optional.empty());

  public ExtendOutcome {
    if (extended && holder.isPresent()) {
      throw new IllegalArgumentException("an extended lease has no other holder");
    }
  }

  public static ExtendOutcome succeeded() {
    return EXTENDED;
  }

  /** Refused: {@code holder} is another owner's live lease. */
  public static ExtendOutcome mismatch(LeaseRecord holder) {
    return new ExtendOutcome(false, Optional.of(holder));
  }

  /** Refused: no live lease (never granted, released or expired; backends need not tell apart). */
  public static ExtendOutcome absent() {
    return ABSENT;
  }
}
