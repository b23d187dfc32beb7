package io.hostloom.leadership;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The consumer side of leader election for one role: who leads, a signal when that ends, a way to
 * wait for it, and listeners. {@link LeaderElector} implements it on a lock; {@code
 * io.hostloom.leadership.testing.ScriptedLeaderElection} is a test double.
 *
 * <p><b>Lease-based, not consensus.</b> Leadership is a lease on the lock key {@code
 * leader:<role>}. An instance that is paused or cut off past its lease may still believe it leads
 * while a successor does: {@link #isLeader()} is the local view. Guard every write with {@link
 * Leadership#term()} (a fencing token) so the resource can refuse an older term.
 */
public interface LeaderElection {

  /** The role this election is for. */
  String role();

  /** {@code true} while this instance holds the role's lease, by the local view. Never blocks. */
  boolean isLeader();

  /** The current term, or empty when not leading. Never blocks. */
  Optional<Leadership> leadership();

  /**
   * A signal that completes when the current leadership ends (lost, resigned or stopped); already
   * complete when not leading. Each call returns a new dependent future. Callbacks run on the
   * thread that ended leadership and must not block.
   */
  default CompletableFuture<Void> leadershipSignal() {
    return leadership()
        .map(l -> l.ended().thenApply(c -> (Void) null))
        .orElseGet(() -> CompletableFuture.completedFuture(null));
  }

  /**
   * Blocks until this instance leads, at most {@code timeout}. Returns at once when already leader;
   * a zero or negative timeout only checks.
   *
   * @return the term, or empty when the timeout passed first
   * @throws InterruptedException when interrupted while waiting (nothing changes for the election)
   * @throws IllegalStateException when the election is or becomes stopped
   */
  default Optional<Leadership> awaitLeadership(Duration timeout) throws InterruptedException {
    CompletableFuture<Leadership> f = awaitLeadershipAsync();
    try {
      if (f.isDone() || timeout.isNegative() || timeout.isZero()) {
        return Optional.ofNullable(f.getNow(null));
      }
      return Optional.of(f.get(timeout.toNanos(), TimeUnit.NANOSECONDS));
    } catch (TimeoutException e) {
      return Optional.empty();
    } catch (ExecutionException | CompletionException e) {
      throw new IllegalStateException(
          "leader elector for role '" + role() + "' is stopped", e.getCause());
    } finally {
      f.cancel(false); // a no-op once complete; otherwise drops the waiter
    }
  }

  /**
   * Completes with the term when this instance leads (at once when already leader); completes
   * exceptionally with {@link IllegalStateException} when the election stops first. Cancelling it
   * only ends this wait.
   */
  CompletableFuture<Leadership> awaitLeadershipAsync();

  /**
   * Steps down when leading: ends the term ({@link ChangeType#RESIGNED}), releases the lease and
   * stays a candidate, trying again after one retry interval. Never blocks.
   *
   * @return {@code true} when this instance was leading
   */
  boolean resign();

  /** Adds a listener for later changes (see {@link LeadershipListener} for order and threads). */
  void addListener(LeadershipListener listener);

  /** Removes a listener added by {@link #addListener}; idempotent. */
  void removeListener(LeadershipListener listener);

  /** What this election is, without contacting anything. */
  LeadershipDescription describe();
}
