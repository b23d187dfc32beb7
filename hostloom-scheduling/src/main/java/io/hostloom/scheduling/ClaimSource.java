package io.hostloom.scheduling;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The claim step of a {@link ScheduleGuard}, one implementation per guard kind: a lock claim per
 * occurrence ({@link LockClaimSource}) or the current leadership of a role ({@link
 * LeaderScheduleGuard}). Everything else a run does (overlap check, lateness, timeout, loss,
 * outcomes, listener, state) is the guard's and the same for every kind.
 */
interface ClaimSource {

  /**
   * Claims the occurrence due at {@code occurrence}. Empty when this instance may not run it now
   * (see {@link #busyReason}).
   *
   * @throws io.hostloom.locking.LockInterruptedException when interrupted while claiming
   * @throws RuntimeException when nothing can say whether the occurrence may run (guard failed)
   */
  Optional<HeldClaim> claim(ScheduleOptions options, Instant occurrence);

  /** Why an empty {@link #claim} was empty, for the skip log (3400). */
  String busyReason();

  /** What is wrong with {@code options} for this source (empty when nothing is). */
  List<String> validate(ScheduleOptions options);
}
