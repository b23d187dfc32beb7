package io.hostloom.leadership.testing;

import io.hostloom.leadership.ChangeType;
import io.hostloom.leadership.LeaderElection;
import io.hostloom.leadership.LeaderStatus;
import io.hostloom.leadership.Leadership;
import io.hostloom.leadership.LeadershipChange;
import io.hostloom.leadership.LeadershipDescription;
import io.hostloom.leadership.LeadershipListener;
import io.hostloom.leadership.LeadershipOptions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A {@link LeaderElection} that a test drives by hand, for testing code that consumes leadership
 * without a lock: {@link #hold()} makes it leader, {@link #lose()} takes leadership away, {@link
 * #failNext()} makes the next {@link #hold()} fail as an unreachable backend would. Listeners run
 * on the calling thread, in order. Thread-safe.
 *
 * <pre>{@code
 * ScriptedLeaderElection election = new ScriptedLeaderElection("billing");
 * MyJob job = new MyJob(election);
 * Leadership term = election.hold();         // ACQUIRED, term 1
 * job.tick();                                // writes guarded by term.term()
 * election.lose();                           // LOST: the job must stop
 * }</pre>
 */
public final class ScriptedLeaderElection implements LeaderElection {
  private final String role;
  private final Clock clock;
  private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();

  // guarded by this
  private long lastTerm;
  private Leadership current;
  private boolean failNext;
  private boolean backendDown;
  private final List<CompletableFuture<Leadership>> waiters = new ArrayList<>();
  private final List<LeadershipChange> changes = new ArrayList<>();

  public ScriptedLeaderElection(String role) {
    this(role, Clock.systemUTC());
  }

  public ScriptedLeaderElection(String role, Clock clock) {
    this.role = Objects.requireNonNull(role, "role");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Becomes leader with the next term (one more than the last); a no-op when already leading. */
  public Leadership hold() {
    long next;
    synchronized (this) {
      next = lastTerm + 1;
    }
    return hold(next);
  }

  /**
   * Becomes leader with {@code term}; a no-op returning the current term when already leading.
   *
   * @throws IllegalArgumentException when {@code term} is not above the last term (terms of a role
   *     strictly increase)
   * @throws IllegalStateException when {@link #failNext()} was called: the backend is "down" and
   *     nobody leads; the next call succeeds
   */
  public Leadership hold(long term) {
    Leadership started;
    List<CompletableFuture<Leadership>> woken;
    synchronized (this) {
      if (current != null) {
        return current;
      }
      if (failNext) {
        failNext = false;
        backendDown = true;
        throw new IllegalStateException("scripted backend failure for role '" + role + "'");
      }
      if (term <= lastTerm) {
        throw new IllegalArgumentException(
            "term must be above the last term " + lastTerm + ", but was " + term);
      }
      backendDown = false;
      lastTerm = term;
      started = new Leadership(role, term, clock.instant());
      current = started;
      woken = new ArrayList<>(waiters);
      waiters.clear();
    }
    fire(new LeadershipChange(role, ChangeType.ACQUIRED, term, clock.instant(), ""));
    woken.forEach(w -> w.complete(started));
    return started;
  }

  /** Loses leadership ({@link ChangeType#LOST}, detail {@code scripted}). */
  public boolean lose() {
    return end(ChangeType.LOST, "scripted");
  }

  /** Stops as an elector would ({@link ChangeType#STOPPED} when leading). */
  public boolean stop() {
    return end(ChangeType.STOPPED, "");
  }

  /** The next {@link #hold()} fails; {@link #describe()} reports the backend unreachable. */
  public synchronized void failNext() {
    failNext = true;
  }

  /** Every change so far, in order. */
  public synchronized List<LeadershipChange> changes() {
    return List.copyOf(changes);
  }

  @Override
  public String role() {
    return role;
  }

  @Override
  public synchronized boolean isLeader() {
    return current != null;
  }

  @Override
  public synchronized Optional<Leadership> leadership() {
    return Optional.ofNullable(current);
  }

  @Override
  public synchronized CompletableFuture<Leadership> awaitLeadershipAsync() {
    CompletableFuture<Leadership> f = new CompletableFuture<>();
    if (current != null) {
      f.complete(current);
    } else {
      waiters.add(f);
    }
    return f;
  }

  @Override
  public boolean resign() {
    return end(ChangeType.RESIGNED, "");
  }

  @Override
  public void addListener(LeadershipListener listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  @Override
  public void removeListener(LeadershipListener listener) {
    listeners.remove(listener);
  }

  @Override
  public synchronized LeadershipDescription describe() {
    return new LeadershipDescription(
        role,
        "leader:" + role,
        current != null ? LeaderStatus.LEADER : LeaderStatus.FOLLOWER,
        current != null ? current.term() : 0,
        !backendDown,
        LeadershipOptions.DEFAULTS);
  }

  private boolean end(ChangeType type, String detail) {
    Leadership ended;
    synchronized (this) {
      ended = current;
      current = null;
    }
    if (ended == null) {
      return false;
    }
    LeadershipChange c = new LeadershipChange(role, type, ended.term(), clock.instant(), detail);
    ended.end(c);
    fire(c);
    return true;
  }

  private synchronized void fire(LeadershipChange change) {
    changes.add(change);
    for (LeadershipListener l : listeners) {
      l.onChange(change);
    }
  }
}
