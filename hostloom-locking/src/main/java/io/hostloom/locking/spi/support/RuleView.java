package io.hostloom.locking.spi.support;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A native view ({@link io.hostloom.locking.spi.PermitLeases}, {@link
 * io.hostloom.locking.spi.ReadWriteLeases}) as the {@link LockBackend} the lease engine holds
 * through: its operations checked and mapped to one view's {@link ViewRules}, each decided by the
 * backend's own atomic step on a key's state ({@link #apply}). {@code replace} is not part of a
 * view: it fails {@code OTHER}. For backends that keep a key's entries in one record and decide in
 * Java (in-memory, ZooKeeper); a backend whose step is a server-side script implements the views
 * itself.
 *
 * @param <S> the key state ({@link PermitEntries} or {@link ReadWriteEntries})
 */
public abstract class RuleView<S> implements LockBackend {
  private final ViewRules<S> rules;
  private final BackendArguments arguments;
  private final String view;

  /**
   * @param rules the view's decisions
   * @param arguments the argument checks of the backend (its owner and data limits)
   * @param view the view's name in failures, e.g. {@code "permit view"}
   */
  protected RuleView(ViewRules<S> rules, BackendArguments arguments, String view) {
    this.rules = Objects.requireNonNull(rules, "rules");
    this.arguments = Objects.requireNonNull(arguments, "arguments");
    this.view = Objects.requireNonNull(view, "view");
  }

  /**
   * A decision of the rules on a key's state at the backend's now, granting tokens from a floor.
   */
  @FunctionalInterface
  public interface Decision<S, O> {
    /**
     * @param now the backend's now, in the rules' nanoseconds
     * @param floor the least token a new grant may take
     */
    ViewStep<S, O> at(S state, long now, long floor);
  }

  /**
   * Runs {@code decision} atomically on {@code key}'s state: writes its next state (when it
   * differs) in place of the state it read, then completes with its outcome; fails with a {@link
   * LockBackendException} when the backend fails.
   *
   * @param operation the operation's name in failures ("acquire", "extend", "release")
   */
  protected abstract <O> CompletableFuture<O> apply(
      String operation, String key, Decision<S, O> decision);

  /** Reads {@code key}'s state and answers what {@code read} makes of it at the backend's now. */
  protected abstract CompletableFuture<Optional<LeaseRecord>> peek(
      String key, ViewRules.Read<S> read);

  /** A lease in the rules' nanoseconds; {@link LeaseRounding#nanos} unless overridden. */
  protected long leaseNanos(Duration lease) {
    return LeaseRounding.nanos(lease);
  }

  /** The view's name in failures. */
  protected final String view() {
    return view;
  }

  @Override
  public final CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    arguments.acquire(key, owner, data, lease);
    long nanos = leaseNanos(lease);
    return apply(
        "acquire",
        key,
        (s, now, floor) -> rules.acquire().decide(s, owner, data, now, nanos, floor));
  }

  @Override
  public final CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    arguments.extend(key, owner, lease);
    long nanos = leaseNanos(lease);
    return apply("extend", key, (s, now, floor) -> rules.extend().decide(s, owner, now, nanos));
  }

  @Override
  public final CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    arguments.release(key, owner);
    return apply("release", key, (s, now, floor) -> rules.release().decide(s, owner, now));
  }

  /** Not part of a view (the lease engine never replaces): fails {@code OTHER}. */
  @Override
  public final CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    arguments.replace(key, expectedOwner, newOwner, newData, lease);
    return CompletableFuture.failedFuture(
        LockBackendException.other(name() + " " + view + ": replace is not part of a view", null));
  }

  @Override
  public final CompletableFuture<Optional<LeaseRecord>> read(String key) {
    arguments.read(key);
    return peek(key, rules.read());
  }
}
