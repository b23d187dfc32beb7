package io.hostloom.leadership;

import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * One term of leadership of one elector: from the grant that made it leader to the change that
 * ended it. Immutable apart from its end signal; safe to hand to other threads.
 *
 * <p><b>The term is a fencing token.</b> {@link #term()} is the lock backend's fencing token of the
 * grant: it strictly increases with every grant of the role's key, across all instances, for as
 * long as the backend keeps its data (see the backend's README). Send it with every write the
 * leader makes and let the resource reject a term lower than one it has seen: a leader that was
 * paused past its lease and does not know it yet is then refused, whatever its local state says.
 */
public final class Leadership {
  private final String role;
  private final long term;
  private final Instant since;
  private final BooleanSupplier leaseHeld;
  private final CompletableFuture<LeadershipChange> end = new CompletableFuture<>();

  /** For test doubles: a term that lasts until {@link #end}. */
  public Leadership(String role, long term, Instant since) {
    this(role, term, since, () -> true);
  }

  /**
   * For electors: a term that also stops being current once {@code leaseHeld} answers {@code false}
   * (the lease ran out on the local clock), whether or not the elector has noticed yet.
   */
  public Leadership(String role, long term, Instant since, BooleanSupplier leaseHeld) {
    this.role = Objects.requireNonNull(role, "role");
    this.term = term;
    this.since = Objects.requireNonNull(since, "since");
    this.leaseHeld = Objects.requireNonNull(leaseHeld, "leaseHeld");
  }

  public String role() {
    return role;
  }

  /** The fencing token of the grant that started this term ({@code 0} over a disabled lock). */
  public long term() {
    return term;
  }

  /** When the elector became leader, on its clock's wall time. */
  public Instant since() {
    return since;
  }

  /**
   * {@code true} until the term ended (lost, resigned or stopped) or its lease ran out on the local
   * clock, even when no timer has run since (after a pause). Never blocks.
   */
  public boolean isCurrent() {
    return !end.isDone() && leaseHeld.getAsBoolean();
  }

  /**
   * Completes with the change that ended this term ({@code LOST}, {@code RESIGNED} or {@code
   * STOPPED}) and never otherwise. Each call returns a new dependent future: completing or
   * cancelling it affects only that copy. Callbacks run on the thread that ended the term and must
   * not block.
   */
  public CompletableFuture<LeadershipChange> ended() {
    return end.thenApply(c -> c);
  }

  /** Ends the term once; later calls are ignored. For electors and test doubles. */
  public boolean end(LeadershipChange change) {
    return end.complete(change);
  }

  @Override
  public String toString() {
    return "Leadership[role=" + role + ", term=" + term + ", since=" + since + "]";
  }
}
