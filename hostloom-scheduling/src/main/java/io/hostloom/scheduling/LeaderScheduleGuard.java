package io.hostloom.scheduling;

import io.hostloom.leadership.ChangeType;
import io.hostloom.leadership.LeaderElection;
import io.hostloom.leadership.Leadership;
import io.hostloom.leadership.LeadershipChange;
import io.hostloom.locking.LockInterruptedException;
import io.hostloom.locking.LossReason;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Builds {@link ScheduleGuard}s that run a schedule only on the current leader of a role ({@code
 * hostloom-leadership}, an optional dependency of this module: add it to use this class; nothing
 * else here loads its types). The claim of an occurrence is the leader's current term: no lock
 * round trip per occurrence, the elector's lease renewals are the only backend traffic.
 *
 * <pre>{@code
 * LeaderElector billing = LeaderElector.builder(locks, "billing").build();
 * billing.start();
 * ScheduleGuard invoices =
 *     LeaderScheduleGuard.of(billing, ScheduleOptions.builder("invoice-run").build());
 * ExclusiveScheduler.on(executor).schedule(invoices, ScheduleTrigger.fixedRate(ofMinutes(5)),
 *     claim -> billing.settleDue(claim.fencingToken()));   // the token is the leader's term
 * }</pre>
 *
 * <ul>
 *   <li><b>Follower</b> (not leading when the occurrence is claimed): {@link RunOutcome#SKIPPED},
 *       no backend call. With {@link ScheduleOptions#maxWait()} the run first waits that long for
 *       leadership ({@link LeaderElection#awaitLeadership}); a stopped election is a follower.
 *   <li><b>Leader</b>: the job runs with a claim whose fencing token is the term, when the term
 *       began no later than the occurrence was due, less {@link ScheduleOptions#minimumHold()}. A
 *       term that began later may follow a leader that ran the occurrence (a run that waited for
 *       leadership with {@code maxWait}, or a new leader whose wall clock is behind the old one's):
 *       the occurrence is skipped, so across a hand-over it runs at most once while the clock skew
 *       between instances stays below the hand-over time plus {@code minimumHold}.
 *   <li><b>Leadership ends mid-run</b> (lost, resigned, stopped): the claim's {@link
 *       ScheduleClaim#lost()} completes, with {@link io.hostloom.locking.OnLost#CANCEL} the job is
 *       interrupted, and the run ends as {@link RunOutcome#CLAIM_LOST}.
 *   <li>Timeout, lateness, overlap in this process, outcomes, listener and state: as for any {@link
 *       ScheduleGuard}. The options' {@code lease}, {@code autoExtend} and {@code maxHold} do not
 *       apply: the term is held and renewed by the elector, not per run, so there is nothing to
 *       extend or keep after a run.
 * </ul>
 *
 * <p>Over a disabled lock an elector leads with term 0: every run is granted, {@link
 * ScheduleClaim#isCoordinated()} is false (single-instance mode).
 */
public final class LeaderScheduleGuard {
  private LeaderScheduleGuard() {}

  /**
   * A builder for the leader-only guard of {@code options.name()} on {@code election}'s role; pass
   * the elector's clock to {@link ScheduleGuard.Builder#clock} when it is not the system clock.
   */
  public static ScheduleGuard.Builder builder(LeaderElection election, ScheduleOptions options) {
    return new ScheduleGuard.Builder(
        new LeaderClaimSource(Objects.requireNonNull(election, "election")), options);
  }

  /** A leader-only guard on the system clock without a listener. */
  public static ScheduleGuard of(LeaderElection election, ScheduleOptions options) {
    return builder(election, options).build();
  }

  private record LeaderClaimSource(LeaderElection election) implements ClaimSource {
    @Override
    public Optional<HeldClaim> claim(ScheduleOptions options, Instant occurrence) {
      Optional<Leadership> term = election.leadership();
      Duration wait = options.maxWait();
      if (term.isEmpty() && !wait.isZero() && !wait.isNegative()) {
        try {
          term = election.awaitLeadership(wait);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw LockInterruptedException.acquiring(options.lockKey());
        } catch (IllegalStateException stopped) {
          term = Optional.empty();
        }
      }
      // a term that began after the occurrence was due (less the skew allowance) may follow a
      // leader that ran it: skip rather than run it twice
      Instant earliest = occurrence.minus(options.minimumHold());
      return term.filter(Leadership::isCurrent)
          .filter(t -> !t.since().isAfter(earliest))
          .map(LeaderClaim::new);
    }

    @Override
    public String busyReason() {
      return "this instance does not lead role '"
          + election.role()
          + "', or its term began after the occurrence was due";
    }

    @Override
    public List<String> validate(ScheduleOptions options) {
      return List.of();
    }
  }

  private record LeaderClaim(Leadership term) implements HeldClaim {
    @Override
    public long fencingToken() {
      return term.term();
    }

    @Override
    public boolean isHeld() {
      return term.isCurrent();
    }

    @Override
    public Instant leaseEnd() {
      LeadershipChange end = term.ended().getNow(null);
      return end == null ? Instant.MAX : end.at();
    }

    @Override
    public CompletableFuture<LossReason> lost() {
      return term.ended().thenApply(LeaderClaim::reason);
    }

    private static LossReason reason(LeadershipChange change) {
      if (change.type() == ChangeType.LOST) {
        for (LossReason r : LossReason.values()) {
          if (r.tagValue().equals(change.detail())) {
            return r;
          }
        }
      }
      return LossReason.EXPIRED;
    }

    @Override
    public boolean isCoordinated() {
      return term.term() != 0;
    }

    @Override
    public void release() {} // the term is the elector's, not this run's
  }
}
