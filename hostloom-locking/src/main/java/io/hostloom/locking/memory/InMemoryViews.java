package io.hostloom.locking.memory;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.locking.spi.support.BackendArguments;
import io.hostloom.locking.spi.support.LeaseRounding;
import io.hostloom.locking.spi.support.ViewRules;
import io.hostloom.locking.spi.support.ViewStep;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
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

  /** One decision on a key's state at {@code now}, granting tokens from {@code floor}. */
  interface Decision<S, O> {
    ViewStep<S, O> decide(S state, long now, long floor);
  }

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

  <O> O apply(String key, Decision<S, O> decision) {
    Object[] result = new Object[1];
    states.compute(
        key,
        (k, s) -> {
          long now = clock.nanoTime(); // inside the atomic step: linearizable expiry
          ViewStep<S, O> step = decision.decide(s == null ? empty : s, now, fencing.get() + 1);
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

  <T> T peek(String key, BiFunction<S, Long, T> read) {
    S s = states.get(key);
    return read.apply(s == null ? empty : s, clock.nanoTime());
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

  /** One view over these states: the lease engine's five operations mapped to the view's rules. */
  static final class View<S> implements LockBackend {
    private final InMemoryViews<S> views;
    private final String name;
    private final ViewRules<S> rules;

    View(InMemoryViews<S> views, String name, ViewRules<S> rules) {
      this.views = views;
      this.name = name;
      this.rules = rules;
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquire(
        String key, String owner, String data, Duration lease) {
      ARGUMENTS.acquire(key, owner, data, lease);
      long leaseNanos = LeaseRounding.nanos(lease);
      return CompletableFuture.completedFuture(
          views.apply(
              key,
              (s, now, floor) -> rules.acquire().decide(s, owner, data, now, leaseNanos, floor)));
    }

    @Override
    public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
      ARGUMENTS.extend(key, owner, lease);
      long leaseNanos = LeaseRounding.nanos(lease);
      return CompletableFuture.completedFuture(
          views.apply(key, (s, now, floor) -> rules.extend().decide(s, owner, now, leaseNanos)));
    }

    @Override
    public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
      ARGUMENTS.release(key, owner);
      return CompletableFuture.completedFuture(
          views.apply(key, (s, now, floor) -> rules.release().decide(s, owner, now)));
    }

    /** Not part of the views: the lease engine never replaces. */
    @Override
    public CompletableFuture<ReplaceOutcome> replace(
        String key, String expectedOwner, String newOwner, String newData, Duration lease) {
      ARGUMENTS.replace(key, expectedOwner, newOwner, newData, lease);
      return CompletableFuture.failedFuture(
          LockBackendException.other("an in-memory " + name + " does not replace entries", null));
    }

    @Override
    public CompletableFuture<Optional<LeaseRecord>> read(String key) {
      ARGUMENTS.read(key);
      return CompletableFuture.completedFuture(views.peek(key, rules.read()::at));
    }

    @Override
    public String name() {
      return "in-memory " + name;
    }
  }
}
