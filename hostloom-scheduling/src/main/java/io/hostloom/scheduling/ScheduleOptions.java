package io.hostloom.scheduling;

import io.hostloom.locking.LockKey;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.OnLost;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The settings of one named schedule. Immutable; built with {@link #builder(String)}, whose setters
 * reject bad values at once and whose {@link Builder#build()} checks the relations between them
 * ("... but was X").
 *
 * <p>Defaults: lease {@link #DEFAULT_LEASE}, minimum hold zero, wait zero (skip if busy), no
 * automatic extension, max hold {@link #DEFAULT_MAX_HOLD} (used only with automatic extension), no
 * timeout, {@link OnLost#OBSERVE}.
 */
public final class ScheduleOptions {
  /** The prefix of every schedule's lock key: {@code schedule:<name>}. */
  public static final String KEY_PREFIX = "schedule:";

  public static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);
  public static final Duration DEFAULT_MAX_HOLD = LockingOptions.DEFAULT_MAX_HOLD;

  private final String name;
  private final Duration lease;
  private final Duration minimumHold;
  private final Duration maxWait;
  private final LockRetryPolicy retry;
  private final boolean autoExtend;
  private final Duration maxHold;
  private final Duration timeout;
  private final Duration maxLateness;
  private final OnLost onLost;

  private ScheduleOptions(Builder b) {
    name = b.name;
    lease = b.lease;
    minimumHold = b.minimumHold;
    maxWait = b.maxWait;
    retry = b.retry;
    autoExtend = b.autoExtend;
    maxHold = b.maxHold;
    timeout = b.timeout;
    maxLateness = b.maxLateness;
    onLost = b.onLost;
  }

  /**
   * A builder for the schedule {@code name}; the name must make a valid lock key ({@link LockKey}:
   * non-empty, no whitespace or control characters).
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** Options with every default. */
  public static ScheduleOptions of(String name) {
    return builder(name).build();
  }

  public Builder toBuilder() {
    Builder b = new Builder(name);
    b.lease = lease;
    b.minimumHold = minimumHold;
    b.maxWait = maxWait;
    b.retry = retry;
    b.autoExtend = autoExtend;
    b.maxHold = maxHold;
    b.timeout = timeout;
    b.maxLateness = maxLateness;
    b.onLost = onLost;
    return b;
  }

  public String name() {
    return name;
  }

  /** The lock key of this schedule's claims: {@code schedule:<name>}. */
  public String lockKey() {
    return KEY_PREFIX + name;
  }

  /**
   * How long a claim lasts without extension (ShedLock's "lock at most for"): an instance that dies
   * mid-run blocks the schedule for at most this long.
   */
  public Duration lease() {
    return lease;
  }

  /**
   * How long a claim is held at least, from the claim request (ShedLock's "lock at least for"): a
   * run that ends sooner keeps the claim until then (the lock's {@link LockOptions#minimumHold()}:
   * the lease is set to the remainder, on the backend's clock), so an instance whose clock is a
   * little behind cannot claim the same occurrence once this run released it. Zero: released when
   * the job ends. For a leader-only schedule ({@link LeaderScheduleGuard}) it is the clock skew
   * tolerated across a hand-over: a term runs no occurrence due less than this after it began.
   */
  public Duration minimumHold() {
    return minimumHold;
  }

  /** How long to wait for a busy claim; zero (the default) skips at once. */
  public Duration maxWait() {
    return maxWait;
  }

  /** The retry policy of a waiting claim; empty: the lock's. */
  public Optional<LockRetryPolicy> retry() {
    return Optional.ofNullable(retry);
  }

  /**
   * Whether the lock extends the claim while the job runs (at half the lease left), up to {@link
   * #maxHold}.
   */
  public boolean autoExtend() {
    return autoExtend;
  }

  /**
   * With {@link #autoExtend}: no extension makes the claim end later than this long after the claim
   * request (the lock's {@link LockOptions#maxHold()}, capped by its own max hold); a job still
   * running then loses its claim when the lease runs out.
   */
  public Duration maxHold() {
    return maxHold;
  }

  /** When set, a job still running this long after it started is interrupted (timed out). */
  public Optional<Duration> timeout() {
    return Optional.ofNullable(timeout);
  }

  /**
   * When set, an occurrence whose claim is requested, or granted, more than this long after it was
   * due is skipped: <b>with {@code maxLateness} below {@link #minimumHold()}, each occurrence runs
   * at most once</b> across instances whose wall clocks differ by less than the difference (the
   * instance that ran it still holds the claim whenever another may still try it). Unset (the
   * default): a late occurrence is always tried.
   */
  public Optional<Duration> maxLateness() {
    return Optional.ofNullable(maxLateness);
  }

  /** What a lost claim does to the running job: only report it, or interrupt it too. */
  public OnLost onLost() {
    return onLost;
  }

  /**
   * Problems of these options for a lock with {@code lock}'s settings (a lease above its max lease,
   * which the lock would silently cap), each naming the schedule; empty when none.
   */
  public List<String> validateFor(LockingOptions lock) {
    List<String> problems = new ArrayList<>();
    if (lease.compareTo(lock.maxLease()) > 0) {
      problems.add(
          "schedule '"
              + name
              + "': lease must be at most "
              + LockingOptions.KEY_MAX_LEASE
              + " ("
              + lock.maxLease()
              + ") but was "
              + lease);
    }
    if (autoExtend && maxHold.compareTo(lock.maxHold()) > 0) {
      problems.add(
          "schedule '"
              + name
              + "': maxHold must be at most "
              + LockingOptions.KEY_MAX_HOLD
              + " ("
              + lock.maxHold()
              + ") but was "
              + maxHold);
    }
    return problems;
  }

  /** The lock options of one claim attempt. */
  LockOptions lockOptions() {
    LockOptions.Builder b =
        LockOptions.builder()
            .lease(lease)
            .maxWait(maxWait)
            .autoExtend(autoExtend)
            .minimumHold(minimumHold)
            .onLost(onLost);
    if (autoExtend) {
      b.maxHold(maxHold);
    }
    if (retry != null) {
      b.retry(retry);
    }
    return b.build();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ScheduleOptions x
        && name.equals(x.name)
        && lease.equals(x.lease)
        && minimumHold.equals(x.minimumHold)
        && maxWait.equals(x.maxWait)
        && Objects.equals(retry, x.retry)
        && autoExtend == x.autoExtend
        && maxHold.equals(x.maxHold)
        && Objects.equals(timeout, x.timeout)
        && Objects.equals(maxLateness, x.maxLateness)
        && onLost == x.onLost;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        name,
        lease,
        minimumHold,
        maxWait,
        retry,
        autoExtend,
        maxHold,
        timeout,
        maxLateness,
        onLost);
  }

  @Override
  public String toString() {
    return "ScheduleOptions["
        + name
        + ", lease="
        + lease
        + ", minimumHold="
        + minimumHold
        + ", maxWait="
        + maxWait
        + ", autoExtend="
        + autoExtend
        + ", maxHold="
        + maxHold
        + ", timeout="
        + timeout
        + ", maxLateness="
        + maxLateness
        + ", onLost="
        + onLost
        + "]";
  }

  /** Builder of {@link ScheduleOptions}; see the class comment for the defaults. */
  public static final class Builder {
    private final String name;
    private Duration lease = DEFAULT_LEASE;
    private Duration minimumHold = Duration.ZERO;
    private Duration maxWait = Duration.ZERO;
    private LockRetryPolicy retry;
    private boolean autoExtend;
    private Duration maxHold = DEFAULT_MAX_HOLD;
    private Duration timeout;
    private Duration maxLateness;
    private OnLost onLost = OnLost.OBSERVE;

    private Builder(String name) {
      Objects.requireNonNull(name, "name");
      if (name.isEmpty()) {
        throw new IllegalArgumentException("a schedule name must not be empty");
      }
      try {
        LockKey.validate(KEY_PREFIX + name);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "a schedule name must make a valid lock key but was '" + name + "'", e);
      }
      this.name = name;
    }

    /** Default {@link ScheduleOptions#DEFAULT_LEASE}; positive. */
    public Builder lease(Duration lease) {
      this.lease = Durations.positive("lease", lease);
      return this;
    }

    /** Default zero; at most the lease (checked by {@link #build()}). */
    public Builder minimumHold(Duration minimumHold) {
      this.minimumHold = Durations.notNegative("minimumHold", minimumHold);
      return this;
    }

    /** Default zero (skip if busy). */
    public Builder maxWait(Duration maxWait) {
      this.maxWait = Durations.notNegative("maxWait", maxWait);
      return this;
    }

    public Builder retry(LockRetryPolicy retry) {
      this.retry = Objects.requireNonNull(retry, "retry");
      return this;
    }

    /** Default {@code false}. */
    public Builder autoExtend(boolean autoExtend) {
      this.autoExtend = autoExtend;
      return this;
    }

    /** Default {@link ScheduleOptions#DEFAULT_MAX_HOLD}; at least the lease when auto-extending. */
    public Builder maxHold(Duration maxHold) {
      this.maxHold = Durations.positive("maxHold", maxHold);
      return this;
    }

    /** Default none; positive. */
    public Builder timeout(Duration timeout) {
      this.timeout = Durations.positive("timeout", timeout);
      return this;
    }

    /** Default none (late occurrences are always tried); not negative. */
    public Builder maxLateness(Duration maxLateness) {
      this.maxLateness = Durations.notNegative("maxLateness", maxLateness);
      return this;
    }

    /** Default {@link OnLost#OBSERVE}. */
    public Builder onLost(OnLost onLost) {
      this.onLost = Objects.requireNonNull(onLost, "onLost");
      return this;
    }

    /**
     * @throws IllegalArgumentException when the minimum hold is longer than the lease, or max hold
     *     shorter than the lease with automatic extension
     */
    public ScheduleOptions build() {
      if (minimumHold.compareTo(lease) > 0) {
        throw new IllegalArgumentException(
            "schedule '"
                + name
                + "': minimumHold must be at most the lease ("
                + lease
                + ") but was "
                + minimumHold);
      }
      if (autoExtend && maxHold.compareTo(lease) < 0) {
        throw new IllegalArgumentException(
            "schedule '"
                + name
                + "': maxHold must be at least the lease ("
                + lease
                + ") but was "
                + maxHold);
      }
      return new ScheduleOptions(this);
    }
  }
}
