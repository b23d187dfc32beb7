package io.hostloom.scheduling;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockInterruptedException;
import io.hostloom.locking.OnLost;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the occurrences of one named schedule on at most one instance at a time: each run first
 * claims the lock key {@code schedule:<name>} ({@link ScheduleOptions#lockKey()}), runs the job
 * only on a granted claim, and releases it afterwards (or when the minimum hold ends). Framework
 * free; thread-safe; one guard per schedule and process.
 *
 * <p><b>Claiming.</b> Skip if busy by default: one attempt, and {@link RunOutcome#SKIPPED} when
 * another instance holds the claim. With {@link ScheduleOptions#maxWait()} the claim is retried for
 * at most that long (never queued beyond it). A run never starts while the previous run of the same
 * guard still executes in this process (also {@link RunOutcome#SKIPPED}, without a backend call).
 *
 * <p><b>Backend failures are never "not my turn" and never "run anyway".</b> When the lock backend
 * fails, nothing can say whether another instance already runs the occurrence, so the job does not
 * run and the result is {@link RunOutcome#GUARD_FAILED} with the lock's exception (logged as error
 * 3402); {@link RunResult#throwIfFailed()} rethrows it.
 *
 * <p><b>While the job runs</b> the claim is extended when {@link ScheduleOptions#autoExtend()} (up
 * to {@link ScheduleOptions#maxHold()}); the job is interrupted at {@link
 * ScheduleOptions#timeout()} ({@link RunOutcome#TIMED_OUT}) and, with {@link OnLost#CANCEL}, when
 * the claim is lost ({@link RunOutcome#CLAIM_LOST}, also without interruption). The guard clears an
 * interrupt it caused once the job ended; an interrupt from outside (executor shutdown) is kept and
 * ends the run as {@link RunOutcome#CANCELLED}.
 *
 * <p><b>Blocking.</b> {@link #run} blocks the calling thread for the claim (at most {@code maxWait}
 * plus the backend's reply), the job, and the release (bounded by the backend's command timeout);
 * the minimum hold does not block: the release is then scheduled on the clock.
 *
 * <p><b>Disabled locking.</b> On a lock with {@code enabled = false} every run is granted a
 * placeholder claim ({@link ScheduleClaim#isCoordinated()} false, token 0): single-instance mode.
 *
 * <p><b>Leader-only guards.</b> {@link LeaderScheduleGuard} builds a guard of the same class whose
 * claim is the current leadership of a role instead of a lock claim per occurrence: the rules above
 * apply, except that a follower's run is {@link RunOutcome#SKIPPED} and no backend is called.
 *
 * <p><b>Log events</b> (logger {@value #LOGGER}; message starts with {@code Name [id]}): 3400
 * ScheduleRunSkipped (debug), 3401 ScheduleRunFailed (warn), 3402 ScheduleGuardFailed (error), 3403
 * ScheduleRunTimedOut (warn), 3404 ScheduleClaimLost (warn), 3405 ScheduleRunCancelled (info), 3406
 * ScheduleListenerFailed (warn), 3408 ScheduleRunLate (info, {@link ExclusiveScheduler}), 3409
 * ScheduleTriggerFailed (error, {@link ExclusiveScheduler}).
 */
public final class ScheduleGuard {
  /** The default logger name. */
  public static final String LOGGER = "io.hostloom.scheduling.Schedule";

  private final ClaimSource source;
  private final ScheduleOptions options;
  private final LockClock clock;
  private final ScheduleListener listener;
  private final Logger log;
  private final AtomicBoolean running = new AtomicBoolean();
  private final AtomicLong runCount = new AtomicLong();
  private final AtomicReference<RunResult> last = new AtomicReference<>();

  private ScheduleGuard(Builder b) {
    source = b.source;
    options = b.options;
    clock = b.clock;
    listener = b.listener;
    log = b.log;
  }

  /**
   * A builder for the guard of {@code options.name()} over {@code lock}. Pass the lock's clock to
   * {@link Builder#clock} when it is not the system clock (tests: the same {@code
   * ManualLockClock}).
   */
  public static Builder builder(DistributedLock lock, ScheduleOptions options) {
    return new Builder(lock, options);
  }

  /** A guard on the system clock without a listener. */
  public static ScheduleGuard of(DistributedLock lock, ScheduleOptions options) {
    return builder(lock, options).build();
  }

  public String name() {
    return options.name();
  }

  public ScheduleOptions options() {
    return options;
  }

  LockClock clock() {
    return clock;
  }

  Logger log() {
    return log;
  }

  /** {@link #run(Instant, ScheduledJob)} for an occurrence due now. */
  public RunResult run(ScheduledJob job) {
    return run(clock.instant(), job);
  }

  /**
   * Claims {@code occurrence}, runs {@code job} under the claim on the calling thread, and releases
   * it. Never throws for what the job or the backend did: the result says it (see {@link
   * RunResult#throwIfFailed()}).
   *
   * @throws NullPointerException for null arguments
   */
  public RunResult run(Instant occurrence, ScheduledJob job) {
    Objects.requireNonNull(occurrence, "occurrence");
    Objects.requireNonNull(job, "job");
    if (!running.compareAndSet(false, true)) {
      log.debug(
          "ScheduleRunSkipped [3400] schedule '{}' occurrence {}: the previous run still runs in"
              + " this process",
          name(),
          occurrence);
      return finish(result(occurrence, RunOutcome.SKIPPED, 0, Duration.ZERO, null));
    }
    try {
      return claimAndRun(occurrence, job);
    } finally {
      running.set(false);
    }
  }

  /**
   * A {@link Runnable} for {@link
   * java.util.concurrent.ScheduledExecutorService#scheduleAtFixedRate} and friends: each call is
   * {@link #run(ScheduledJob)}. It never throws (an exception would stop the executor's periodic
   * task); outcomes are in {@link #state()}, the listener and the log.
   */
  public Runnable wrap(ScheduledJob job) {
    Objects.requireNonNull(job, "job");
    return () -> run(job);
  }

  /** A {@link Callable} whose value is the run's result; it never throws either. */
  public Callable<RunResult> wrapCallable(ScheduledJob job) {
    Objects.requireNonNull(job, "job");
    return () -> run(job);
  }

  /** This schedule in this process; {@code nextDue} is empty (no trigger drives a bare guard). */
  public ScheduleState state() {
    return state(Optional.empty());
  }

  ScheduleState state(Optional<Instant> nextDue) {
    return new ScheduleState(
        name(), nextDue, running.get(), runCount.get(), Optional.ofNullable(last.get()));
  }

  private RunResult claimAndRun(Instant occurrence, ScheduledJob job) {
    if (stale(occurrence, "requested")) {
      return finish(result(occurrence, RunOutcome.SKIPPED, 0, Duration.ZERO, null));
    }
    Optional<HeldClaim> claimed;
    try {
      claimed = source.claim(options, occurrence);
    } catch (LockInterruptedException e) {
      log.info(
          "ScheduleRunCancelled [3405] schedule '{}' occurrence {}: interrupted while claiming",
          name(),
          occurrence);
      return finish(result(occurrence, RunOutcome.CANCELLED, 0, Duration.ZERO, e));
    } catch (RuntimeException e) {
      log.error(
          "ScheduleGuardFailed [3402] schedule '{}' occurrence {}: the claim failed, the job does"
              + " not run: {}",
          name(),
          occurrence,
          e.toString());
      return finish(result(occurrence, RunOutcome.GUARD_FAILED, 0, Duration.ZERO, e));
    }
    if (claimed.isEmpty()) {
      log.debug(
          "ScheduleRunSkipped [3400] schedule '{}' occurrence {}: {}",
          name(),
          occurrence,
          source.busyReason());
      return finish(result(occurrence, RunOutcome.SKIPPED, 0, Duration.ZERO, null));
    }
    HeldClaim handle = claimed.get();
    if (stale(occurrence, "granted")) {
      handle.release();
      return finish(result(occurrence, RunOutcome.SKIPPED, 0, Duration.ZERO, null));
    }
    ScheduleClaim claim = new ScheduleClaim(name(), occurrence, handle);
    runCount.incrementAndGet();
    RunResult result;
    try {
      result = runClaimed(occurrence, job, handle, claim);
    } finally {
      handle.release();
    }
    return finish(result);
  }

  private RunResult runClaimed(
      Instant occurrence, ScheduledJob job, HeldClaim handle, ScheduleClaim claim) {
    safe(() -> listener.runStarted(claim));
    RunInterrupter interrupter = new RunInterrupter();
    AtomicBoolean timedOut = new AtomicBoolean();
    AtomicBoolean lost = new AtomicBoolean();
    interrupter.enter(Thread.currentThread());
    handle
        .lost()
        .thenAccept(
            reason -> {
              lost.set(true);
              if (options.onLost() == OnLost.CANCEL) {
                interrupter.interrupt();
              }
            });
    LockClock.Timer timeout =
        options
            .timeout()
            .map(
                t ->
                    clock.schedule(
                        t,
                        () -> {
                          timedOut.set(true);
                          interrupter.interrupt();
                        }))
            .orElse(null);
    long started = clock.nanoTime();
    Throwable failure = null;
    boolean interruptedFromOutside = false;
    try {
      job.run(claim);
    } catch (Throwable t) { // the outcome records everything the job throws, Errors included
      failure = t;
    } finally {
      if (timeout != null) {
        timeout.cancel();
      }
      interrupter.exit();
      interruptedFromOutside = Thread.currentThread().isInterrupted();
    }
    // the lost callback may still be on its way when the job ended at the instant of the loss
    boolean claimLost = lost.get() || (!handle.isHeld() && handle.lost().isDone());
    Duration ran = Duration.ofNanos(clock.nanoTime() - started);
    long token = handle.fencingToken();
    if (timedOut.get()) {
      log.warn(
          "ScheduleRunTimedOut [3403] schedule '{}' occurrence {}: interrupted after {}",
          name(),
          occurrence,
          options.timeout().orElseThrow());
      return result(occurrence, RunOutcome.TIMED_OUT, token, ran, failure);
    }
    if (claimLost) {
      log.warn(
          "ScheduleClaimLost [3404] schedule '{}' occurrence {}: the claim was lost while the job"
              + " ran; another instance may have run it too",
          name(),
          occurrence);
      return result(occurrence, RunOutcome.CLAIM_LOST, token, ran, failure);
    }
    if (interruptedFromOutside || failure instanceof InterruptedException) {
      log.info(
          "ScheduleRunCancelled [3405] schedule '{}' occurrence {}: interrupted",
          name(),
          occurrence);
      return result(occurrence, RunOutcome.CANCELLED, token, ran, failure);
    }
    if (failure != null) {
      log.warn(
          "ScheduleRunFailed [3401] schedule '{}' occurrence {}: the job threw",
          name(),
          occurrence,
          failure);
      return result(occurrence, RunOutcome.FAILED, token, ran, failure);
    }
    return result(occurrence, RunOutcome.SUCCEEDED, token, ran, null);
  }

  /** Whether the occurrence is later than {@code maxLateness} (then it is skipped). */
  private boolean stale(Instant occurrence, String when) {
    Optional<Duration> max = options.maxLateness();
    if (max.isEmpty()) {
      return false;
    }
    Duration late = Duration.between(occurrence, clock.instant());
    if (late.compareTo(max.get()) <= 0) {
      return false;
    }
    log.debug(
        "ScheduleRunSkipped [3400] schedule '{}' occurrence {}: claim {} {} late, more than"
            + " maxLateness {}",
        name(),
        occurrence,
        when,
        late,
        max.get());
    return true;
  }

  private RunResult result(
      Instant occurrence, RunOutcome outcome, long token, Duration ran, Throwable failure) {
    return new RunResult(name(), occurrence, outcome, token, ran, Optional.ofNullable(failure));
  }

  private RunResult finish(RunResult result) {
    last.set(result);
    safe(() -> listener.runFinished(result));
    return result;
  }

  private void safe(Runnable callback) {
    try {
      callback.run();
    } catch (RuntimeException | LinkageError e) {
      log.warn("ScheduleListenerFailed [3406] schedule '{}': a listener threw", name(), e);
    }
  }

  /** Builder of {@link ScheduleGuard}. */
  public static final class Builder {
    private final ClaimSource source;
    private final ScheduleOptions options;
    private LockClock clock = LockClock.system();
    private ScheduleListener listener = ScheduleListener.NO_OP;
    private Logger log = LoggerFactory.getLogger(LOGGER);

    private Builder(DistributedLock lock, ScheduleOptions options) {
      this(new LockClaimSource(Objects.requireNonNull(lock, "lock")), options);
    }

    Builder(ClaimSource source, ScheduleOptions options) {
      this.source = source;
      this.options = Objects.requireNonNull(options, "options");
    }

    /** The clock for timeouts, minimum holds and extensions; default the system clock. */
    public Builder clock(LockClock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    public Builder listener(ScheduleListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    public Builder logger(Logger log) {
      this.log = Objects.requireNonNull(log, "log");
      return this;
    }

    /**
     * @throws IllegalArgumentException when the options do not fit the lock (a lease above the
     *     kernel lock's max lease), naming the schedule
     */
    public ScheduleGuard build() {
      List<String> problems = source.validate(options);
      if (!problems.isEmpty()) {
        throw new IllegalArgumentException(String.join("; ", problems));
      }
      return new ScheduleGuard(this);
    }
  }
}
