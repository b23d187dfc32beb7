package io.hostloom.locking.memory;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.support.BackendArguments;
import io.hostloom.locking.spi.support.RuleView;
import io.hostloom.locking.spi.support.ViewRules;
import io.hostloom.locking.spi.support.ViewStep;
import io.hostloom.locking.time.LockClock;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The entries of the view keys of one {@link InMemoryLockBackend} kind (permits or reader-writer),
 * in a map of their own, so they never meet the backend's lease records. Each operation is one
 * atomic {@link ConcurrentMap#compute} deciding with the state's pure rules at the backend's now; a
 * key whose entries are all gone is removed (its tokens stay above every earlier one through the
 * backend's counter, the floor of every grant). A successful release wakes the key's waits.
 *
 * @param <S> the key state ({@code PermitEntries} or {@code ReadWriteEntries})
 */
final class InMemoryViews<S> {
  private static final BackendArguments ARGUMENTS = BackendArguments.unbounded();

  private final ConcurrentMap<String, S> states = new ConcurrentHashMap<>();
  private final LockClock clock;
  private final AtomicLong fencing;
  private final S empty;
  private final LiveCount<S> live;
  private final Consumer<String> onRelease;

  /** The number of a state's entries live at {@code now}. */
  interface LiveCount<S> {
    int liveAt(S state, long now);
  }

  InMemoryViews(
      LockClock clock, AtomicLong fencing, S empty, LiveCount<S> live, Consumer<String> onRelease) {
    this.clock = clock;
    this.fencing = fencing;
    this.empty = empty;
    this.live = live;
    this.onRelease = onRelease;
  }

  <O> O apply(String key, RuleView.Decision<S, O> decision) {
    Object[] result = new Object[1];
    states.compute(
        key,
        (k, s) -> {
          long now = clock.nanoTime(); // inside the atomic step: linearizable expiry
          ViewStep<S, O> step = decision.at(s == null ? empty : s, now, fencing.get() + 1);
          result[0] = step.outcome();
          if (step.outcome() instanceof AcquireOutcome a && a.granted()) {
            fencing.accumulateAndGet(a.fencingToken(), Math::max);
          }
          return live.liveAt(step.next(), now) == 0 ? null : step.next();
        });
    @SuppressWarnings("unchecked")
    O outcome = (O) result[0];
    if (outcome instanceof ReleaseOutcome r && r.released()) {
      onRelease.accept(key);
    }
    return outcome;
  }

  Optional<LeaseRecord> peek(String key, ViewRules.Read<S> read) {
    S s = states.get(key);
    return read.at(s == null ? empty : s, clock.nanoTime());
  }

  /** Removes the keys with no live entry now. */
  void purgeExpired() {
    long now = clock.nanoTime();
    states.forEach(
        (k, s) -> {
          if (live.liveAt(s, now) == 0) {
            states.remove(k, s);
          }
        });
  }

  /** The number of entries live now, over all keys. */
  int liveCount() {
    long now = clock.nanoTime();
    int n = 0;
    for (S s : states.values()) {
      n += live.liveAt(s, now);
    }
    return n;
  }

  /** One view over these states, deciding with its rules inside {@link #apply}. */
  static final class View<S> extends RuleView<S> {
    private final InMemoryViews<S> views;

    View(InMemoryViews<S> views, String name, ViewRules<S> rules) {
      super(rules, ARGUMENTS, name);
      this.views = views;
    }

    @Override
    protected <O> CompletableFuture<O> apply(
        String operation, String key, Decision<S, O> decision) {
      return CompletableFuture.completedFuture(views.apply(key, decision));
    }

    @Override
    protected CompletableFuture<Optional<LeaseRecord>> peek(String key, ViewRules.Read<S> read) {
      return CompletableFuture.completedFuture(views.peek(key, read));
    }

    @Override
    public String name() {
      return "in-memory " + view();
    }
  }
}
