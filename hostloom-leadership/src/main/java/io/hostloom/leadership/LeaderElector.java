package io.hostloom.leadership;

import io.hostloom.locking.AutoExtensionListener;
import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockEventListener.ExtendResult;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.LossReason;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election for one role on a {@link DistributedLock}: the leader is the holder of the lock
 * key {@code leader:<role>} (under the lock's namespace), and its term is the fencing token of that
 * grant.
 *
 * <p><b>The loop.</b> After {@link #start()} the elector is a candidate: it makes one skip-if-busy
 * attempt at once and then every {@linkplain LeadershipOptions#retryInterval() retry interval} plus
 * a random part of the {@linkplain LeadershipOptions#jitter() jitter}. A refusal is normal. A
 * backend failure makes nobody leader through this elector; it is logged once per outage (3204) and
 * its end once (3205). A leader's lease is kept alive by the lock itself ({@link
 * LockOptions#renewUntilClosed() automatic extension without max hold}, every {@linkplain
 * LeadershipOptions#renewInterval() renew interval}); a failed renewal is retried by the lock after
 * half the time left (at least a twentieth of the lease), so one slow or failed call does not end
 * the term. The term ends with any loss the lock reports on the handle ({@link LockHandle#lost()}:
 * a refused or late renewal, or the lease running out on the local clock): the {@linkplain
 * #leadershipSignal() signal} fires, listeners see {@link ChangeType#LOST}, the lease is released
 * (owner-checked, harmless when already gone) and the elector waits one retry interval before it
 * tries again, so a flapping backend causes no hot loop. {@link #isLeader()} and {@link
 * Leadership#isCurrent()} compare against the local lease end when asked, so an instance that was
 * paused past its lease does not answer "leader" before any timer has run.
 *
 * <p><b>Stop and resign.</b> {@link #stop()} ends the term ({@link ChangeType#STOPPED}), releases
 * the lease and waits for the backend's answer, so another instance can lead at once; a stopped
 * elector never runs again. {@link #resign()} ends the term ({@link ChangeType#RESIGNED}), releases
 * and stays a candidate, waiting one retry interval first.
 *
 * <p><b>Over a disabled lock</b> (single-instance mode) every elector leads, with term {@code 0}.
 *
 * <p><b>Log events</b> (logger {@code io.hostloom.leadership.LeaderElector} unless set): 3200
 * LeaderAcquired (info), 3201 LeaderLost (warn), 3202 LeaderResigned (info), 3203 LeaderStopped
 * (info), 3204 LeaderBackendUnavailable (warn, once per outage), 3205 LeaderBackendRecovered
 * (info), 3206 LeaderRenewFailed (warn at the first failure of a run, debug after), 3207
 * LeaderListenerFailed (warn).
 *
 * <p>Thread-safe. All timers run on the elector's {@link LockClock}.
 */
public final class LeaderElector implements LeaderElection, AutoCloseable {
  public static final String DEFAULT_LOGGER = "io.hostloom.leadership.LeaderElector";

  private final DistributedLock lock;
  private final String role;
  private final String key;
  private final LeadershipOptions options;
  private final LockClock clock;
  private final DoubleSupplier jitterFraction;
  private final Logger log;
  private final LockOptions acquireOptions;
  private final AutoExtensionListener renewals = this::renewed;
  private final OrderedListeners listeners;

  // guarded by this
  private LeaderStatus status = LeaderStatus.NOT_STARTED;
  private long generation; // bumped by every change so that stale timers and replies do nothing
  private LockClock.Timer timer;
  private LockHandle handle;
  private Leadership current;
  private boolean backendDown;
  private boolean renewFailing;
  private CompletableFuture<Void> releasing = CompletableFuture.completedFuture(null);
  private final List<CompletableFuture<Leadership>> waiters = new ArrayList<>();

  private LeaderElector(Builder b) {
    this.lock = b.lock;
    this.role = b.role;
    this.key = "leader:" + b.role;
    this.options = b.options;
    this.clock = b.clock;
    this.jitterFraction = b.jitterFraction;
    this.log = b.logger != null ? b.logger : LoggerFactory.getLogger(DEFAULT_LOGGER);
    this.acquireOptions =
        LockOptions.builder()
            .lease(options.lease())
            .maxWait(Duration.ZERO)
            .renewUntilClosed(true)
            .extendEvery(options.renewInterval())
            .onAutoExtension(renewals)
            .build();
    this.listeners = new OrderedListeners(role, log, b.listener);
    try {
      b.listener.onRegistered(this);
    } catch (RuntimeException e) {
      log.warn(
          "LeaderListenerFailed [3207]: listener of role '{}' failed in onRegistered", role, e);
    }
  }

  /**
   * A builder for an elector of {@code role} on {@code lock}. The role must make a valid lock key
   * as {@code leader:<role>}.
   */
  public static Builder builder(DistributedLock lock, String role) {
    return new Builder(lock, role);
  }

  @Override
  public String role() {
    return role;
  }

  /** The lock key, without the lock's namespace: {@code leader:<role>}. */
  public String key() {
    return key;
  }

  public LeadershipOptions options() {
    return options;
  }

  /** Where the elector is. */
  public synchronized LeaderStatus status() {
    return status;
  }

  /** Also {@code false} once the lease ran out on the local clock, before any timer noticed. */
  @Override
  public boolean isLeader() {
    LockHandle h;
    synchronized (this) {
      h = status == LeaderStatus.LEADER ? handle : null;
    }
    return h != null && h.isHeld(); // outside the monitor: a local expiry ends the term from here
  }

  @Override
  public synchronized Optional<Leadership> leadership() {
    return Optional.ofNullable(current);
  }

  @Override
  public CompletableFuture<Leadership> awaitLeadershipAsync() {
    CompletableFuture<Leadership> f = new CompletableFuture<>();
    synchronized (this) {
      if (status == LeaderStatus.STOPPED) {
        f.completeExceptionally(stopped());
        return f;
      }
      if (current != null) {
        f.complete(current);
        return f;
      }
      waiters.add(f);
    }
    f.whenComplete(
        (l, e) -> {
          if (e instanceof CancellationException) {
            synchronized (this) {
              waiters.remove(f);
            }
          }
        });
    return f;
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
        role, key, status, current == null ? 0 : current.term(), !backendDown, options);
  }

  /**
   * Becomes a candidate: the first attempt is made at once (asynchronously, on the clock's timer).
   * Idempotent while running.
   *
   * @throws IllegalStateException when the elector was stopped
   */
  public synchronized void start() {
    if (status == LeaderStatus.STOPPED) {
      throw stopped();
    }
    if (status == LeaderStatus.NOT_STARTED) {
      status = LeaderStatus.FOLLOWER;
      schedule(Duration.ZERO, this::attempt);
    }
  }

  @Override
  public boolean resign() {
    return endTerm(null, ChangeType.RESIGNED, "") != null;
  }

  /**
   * Stops for good: ends the term when leading ({@link ChangeType#STOPPED}), releases the lease and
   * waits for the backend's answer (bounded by the backend's own command timeout), so that another
   * instance can lead at once. Pending {@link #awaitLeadershipAsync()} futures fail with {@link
   * IllegalStateException}. Idempotent; never throws. An interrupt ends the wait for the release
   * (the flag is set again) while the release completes in the background.
   */
  public void stop() {
    stopAsync().join();
  }

  /**
   * {@link #stop()} without blocking: completes when the release was answered, also the release of
   * a term that ended just before (a loss or a resignation racing the stop); never fails.
   */
  public CompletableFuture<Void> stopAsync() {
    List<CompletableFuture<Leadership>> failed;
    LockHandle h;
    Leadership ended;
    CompletableFuture<Void> earlier;
    synchronized (this) {
      earlier = releasing;
      if (status == LeaderStatus.STOPPED) {
        return earlier;
      }
      status = LeaderStatus.STOPPED;
      generation++;
      cancelTimer();
      h = handle;
      ended = current;
      handle = null;
      current = null;
      failed = new ArrayList<>(waiters);
      waiters.clear();
      if (ended != null) {
        listeners.postChange(change(ChangeType.STOPPED, ended.term(), ""));
      }
    }
    failed.forEach(f -> f.completeExceptionally(stopped()));
    if (ended != null) {
      log.info(
          "LeaderStopped [3203]: role '{}' term {} ended: elector stopped", role, ended.term());
      ended.end(change(ChangeType.STOPPED, ended.term(), ""));
    }
    listeners.drain();
    CompletableFuture<Void> last =
        h == null ? earlier : earlier.thenCombine(h.closeAsync(), (a, b) -> a);
    synchronized (this) {
      releasing = last;
    }
    return last;
  }

  /** {@link #stop()}. */
  @Override
  public void close() {
    stop();
  }

  @Override
  public String toString() {
    return "LeaderElector[role=" + role + ", status=" + status() + "]";
  }

  // ---- the loop ----

  /** Schedules {@code step} for the current generation; the caller holds the monitor. */
  private void schedule(Duration delay, Step step) {
    long gen = generation;
    cancelTimer();
    timer = clock.schedule(delay, () -> step.run(gen));
  }

  private interface Step {
    void run(long generation);
  }

  private void cancelTimer() {
    if (timer != null) {
      timer.cancel();
      timer = null;
    }
  }

  private Duration nextAttemptDelay() {
    long jitterNanos = options.jitter().toNanos();
    double f = Math.min(Math.max(jitterFraction.getAsDouble(), 0.0), 1.0);
    return options.retryInterval().plusNanos((long) (jitterNanos * f));
  }

  private void attempt(long gen) {
    synchronized (this) {
      if (gen != generation || status != LeaderStatus.FOLLOWER) {
        return;
      }
    }
    CompletableFuture<Optional<LockHandle>> f;
    try {
      f = lock.tryAcquireAsync(key, acquireOptions);
    } catch (RuntimeException e) {
      f = CompletableFuture.failedFuture(e);
    }
    f.whenComplete((h, e) -> attempted(gen, h, e));
  }

  private void attempted(long gen, Optional<LockHandle> granted, Throwable error) {
    LockHandle h = granted == null ? null : granted.orElse(null);
    Leadership started = null;
    List<CompletableFuture<Leadership>> woken = List.of();
    boolean recovered = false;
    boolean outage = false;
    synchronized (this) {
      if (gen != generation || status != LeaderStatus.FOLLOWER) {
        if (h != null) {
          h.closeAsync(); // stopped or changed while the attempt was in flight
        }
        return;
      }
      if (error != null) {
        outage = !backendDown;
        backendDown = true;
        schedule(nextAttemptDelay(), this::attempt);
      } else {
        recovered = backendDown;
        backendDown = false;
        if (h == null) {
          schedule(nextAttemptDelay(), this::attempt);
        } else {
          generation++;
          status = LeaderStatus.LEADER;
          handle = h;
          renewFailing = false;
          started = new Leadership(role, h.fencingToken(), clock.instant(), h::isHeld);
          current = started;
          woken = new ArrayList<>(waiters);
          waiters.clear();
          cancelTimer(); // the lock keeps the lease alive from here
          listeners.postChange(change(ChangeType.ACQUIRED, started.term(), ""));
        }
      }
    }
    if (outage) {
      log.warn(
          "LeaderBackendUnavailable [3204]: role '{}' cannot be elected: the lock backend failed;"
              + " retrying every {} (logged once per outage)",
          role,
          options.retryInterval(),
          unwrap(error));
    } else if (error != null) {
      log.debug("LeaderBackendUnavailable [3204]: role '{}': attempt failed again", role);
    }
    if (recovered) {
      log.info("LeaderBackendRecovered [3205]: role '{}': the lock backend answers again", role);
    }
    if (started != null) {
      h.lost().thenAccept(reason -> handleLost(h, reason)); // outside the monitor: may run now
      log.info(
          "LeaderAcquired [3200]: this instance leads role '{}', term {}", role, started.term());
      for (CompletableFuture<Leadership> w : woken) {
        w.complete(started);
      }
    }
    listeners.drain();
  }

  /** The lock's report of one automatic extension of {@code h}. */
  private void renewed(LockHandle h, ExtendResult result, Duration took) {
    RenewalOutcome outcome =
        switch (result) {
          case EXTENDED -> RenewalOutcome.EXTENDED;
          case FAILED -> RenewalOutcome.FAILED;
          case REFUSED, TOO_LATE -> RenewalOutcome.REFUSED;
        };
    boolean firstFailure = false;
    boolean current;
    synchronized (this) {
      listeners.postRenewal(
          new LeadershipRenewal(role, h.fencingToken(), outcome, took, h.leaseEnd()));
      current = h == handle && status == LeaderStatus.LEADER;
      if (current && outcome == RenewalOutcome.EXTENDED) {
        renewFailing = false;
      } else if (current && outcome == RenewalOutcome.FAILED) {
        firstFailure = !renewFailing;
        renewFailing = true;
      }
    }
    if (current && outcome == RenewalOutcome.FAILED) {
      if (firstFailure) {
        log.warn(
            "LeaderRenewFailed [3206]: role '{}' term {}: renewal failed; leading until the lease"
                + " ends at {} unless a retry succeeds",
            role,
            h.fencingToken(),
            h.leaseEnd());
      } else {
        log.debug("LeaderRenewFailed [3206]: role '{}': renewal failed again", role);
      }
    }
    listeners.drain();
  }

  private void handleLost(LockHandle lostHandle, LossReason reason) {
    endTerm(lostHandle, ChangeType.LOST, reason.tagValue());
  }

  /**
   * Ends the current term (LOST or RESIGNED), releases and schedules the next attempt. {@code
   * expected}: the handle of the term a loss was decided for; a later term is left alone (checked
   * under the monitor, where the term changes). {@code null}: whatever term is current.
   */
  private Leadership endTerm(LockHandle expected, ChangeType type, String detail) {
    Leadership ended;
    LockHandle h;
    LeadershipChange c;
    CompletableFuture<Void> released = new CompletableFuture<>();
    synchronized (this) {
      if (status != LeaderStatus.LEADER || (expected != null && expected != handle)) {
        return null;
      }
      ended = current;
      h = handle;
      current = null;
      handle = null;
      status = LeaderStatus.FOLLOWER;
      generation++;
      c = change(type, ended.term(), detail);
      listeners.postChange(c);
      schedule(nextAttemptDelay(), this::attempt);
      CompletableFuture<Void> before = releasing;
      releasing = before.thenCombine(released, (a, b) -> a);
    }
    if (type == ChangeType.LOST) {
      log.warn("LeaderLost [3201]: role '{}' term {} lost ({})", role, ended.term(), detail);
    } else {
      log.info("LeaderResigned [3202]: role '{}' term {} resigned", role, ended.term());
    }
    ended.end(c); // the signal first, so work stops before the lease is released
    var unused = h.closeAsync().whenComplete((v, e) -> released.complete(null));
    listeners.drain();
    return ended;
  }

  private LeadershipChange change(ChangeType type, long term, String detail) {
    return new LeadershipChange(role, type, term, clock.instant(), detail);
  }

  private IllegalStateException stopped() {
    return new IllegalStateException("leader elector for role '" + role + "' is stopped");
  }

  private static Throwable unwrap(Throwable e) {
    return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
  }

  /** Builds a {@link LeaderElector}; defaults: {@link LeadershipOptions#DEFAULTS}, system clock. */
  public static final class Builder {
    private final DistributedLock lock;
    private final String role;
    private LeadershipOptions options = LeadershipOptions.DEFAULTS;
    private LockClock clock = LockClock.system();
    private LeadershipListener listener = LeadershipListener.NO_OP;
    private DoubleSupplier jitterFraction = () -> ThreadLocalRandom.current().nextDouble();
    private Logger logger;

    private Builder(DistributedLock lock, String role) {
      this.lock = Objects.requireNonNull(lock, "lock");
      this.role = Objects.requireNonNull(role, "role");
      if (role.isEmpty()) {
        throw new IllegalArgumentException("role must not be empty");
      }
    }

    public Builder options(LeadershipOptions options) {
      this.options = Objects.requireNonNull(options, "options");
      return this;
    }

    /** The clock for the elector's timers; use the lock's clock (tests: the same manual clock). */
    public Builder clock(LockClock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** A listener that sees every change and renewal from the start (metrics). */
    public Builder listener(LeadershipListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * Where the random part of each retry delay comes from: values in [0, 1) scale the jitter.
     * Default {@link ThreadLocalRandom}.
     */
    public Builder jitterSource(DoubleSupplier jitterFraction) {
      this.jitterFraction = Objects.requireNonNull(jitterFraction, "jitterFraction");
      return this;
    }

    public Builder logger(Logger logger) {
      this.logger = Objects.requireNonNull(logger, "logger");
      return this;
    }

    /**
     * @throws IllegalArgumentException when the lock is one of the kernel's ({@link
     *     DistributedLock#options}) and its {@code maxLease} is shorter than the lease (the lock
     *     would cap every grant and renewal, so the renew cadence would no longer fit the lease
     *     actually granted)
     */
    public LeaderElector build() {
      LockingOptions lockOptions = lock.options().orElse(null);
      if (lockOptions != null
          && lockOptions.enabled()
          && options.lease().compareTo(lockOptions.maxLease()) > 0) {
        throw new IllegalArgumentException(
            LeadershipOptions.PREFIX
                + LeadershipOptions.KEY_LEASE
                + " ("
                + options.lease()
                + ") of role '"
                + role
                + "' must be at most the lock's "
                + LockingOptions.KEY_MAX_LEASE
                + " ("
                + lockOptions.maxLease()
                + ")");
      }
      return new LeaderElector(this);
    }
  }
}
