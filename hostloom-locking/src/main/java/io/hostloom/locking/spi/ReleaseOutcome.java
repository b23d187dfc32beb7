package io.hostloom.locking.spi;

import java.util.Optional;

/**
 * The answer to {@link LockBackend#release}: released, or refused together with what refused it, as
 * the backend saw it in the same atomic operation.
 *
 * @param released whether this call removed the owner's live lease
 * @param holder when refused, another owner's live record (with its data, token and time left);
 *     empty when refused because the key was free or expired, and empty when released
 */
public record ReleaseOutcome(boolean released, Optional<LeaseRecord> holder) {
  private static final ReleaseOutcome RELEASED = new ReleaseOutcome(true, Optional.empty());
  private static final ReleaseOutcome ABSENT = new ReleaseOutcome(false, Optional.empty());

  public ReleaseOutcome {
    if (released && holder.isPresent()) {
      throw new IllegalArgumentException("a released lease has no other holder");
    }
  }

  public static ReleaseOutcome succeeded() {
    return RELEASED;
  }

  /** Refused: {@code holder} is another owner's live lease; nothing was changed. */
  public static ReleaseOutcome mismatch(LeaseRecord holder) {
    return new ReleaseOutcome(false, Optional.of(holder));
  }

  /** Refused: no live lease (never granted, released or expired; backends need not tell apart). */
  public static ReleaseOutcome absent() {
    return ABSENT;
  }
}
