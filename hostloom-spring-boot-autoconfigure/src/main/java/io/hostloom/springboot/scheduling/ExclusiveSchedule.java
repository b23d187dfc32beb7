package io.hostloom.springboot.scheduling;

import io.hostloom.locking.OnLost;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a {@code @Scheduled} method on at most one instance at a time through a {@link
 * io.hostloom.scheduling.ScheduleGuard} over the application's {@code DistributedLock} (lock key
 * {@code schedule:<name>}): each invocation claims the occurrence, runs the method only on a
 * granted claim and releases afterwards (or when the minimum hold ends). Busy elsewhere: the
 * invocation returns without running. A backend failure: the method does not run and the lock's
 * exception is thrown to the scheduler's error handler.
 *
 * <p>Every attribute takes property placeholders ({@code ${...}}); durations are Spring Boot
 * duration strings ({@code PT30S}, {@code 30s}, {@code 500ms}). An empty attribute uses the {@code
 * hostloom.scheduling.*} default. A misconfigured annotation (empty name, minimum hold longer than
 * the lease, a lease above {@code hostloom.locking.max-lease}) fails start-up with a message naming
 * the method.
 *
 * <p><b>Leader-only</b>: with {@link #leaderRole()} set, the method runs only on the current leader
 * of that role (the starter's {@code LeaderElectors}, {@code hostloom.leadership.roles.<role>.*};
 * needs {@code io.hostloom:hostloom-leadership}): no lock round trip per occurrence, followers
 * return without running, and the claim's fencing token is the leader's term. A run during which
 * leadership ends is {@code CLAIM_LOST} (with {@code onLost = CANCEL} the method is interrupted).
 * {@code lease}, {@code minimumHold}, {@code autoExtend} and {@code maxHold} do not apply to it; a
 * role that is not configured fails start-up naming the method.
 *
 * <p>The method must return {@code void} (a skipped run has no value).
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ExclusiveSchedule {
  /** The schedule's name: the same on every instance that must not run it concurrently. */
  String name();

  /** The claim's lease ("lock at most for"); default {@code hostloom.scheduling.default-lease}. */
  String lease() default "";

  /**
   * How long a claim is held at least ("lock at least for"); default {@code
   * hostloom.scheduling.default-minimum-hold}.
   */
  String minimumHold() default "";

  /** How long to wait for a busy claim; default zero: skip if busy. */
  String maxWait() default "";

  /** Skip an occurrence claimed later than this after it was due; default none. */
  String maxLateness() default "";

  /** Interrupt the method after this long; default none. */
  String timeout() default "";

  /**
   * Extend the claim while the method runs, up to {@code maxHold}: {@code "true"}/{@code "false"}.
   */
  String autoExtend() default "false";

  /** The cap of automatic extension; default {@code hostloom.locking.max-hold}. */
  String maxHold() default "";

  /** What a lost claim does to the running method. */
  OnLost onLost() default OnLost.OBSERVE;

  /**
   * Run only on the current leader of this role instead of claiming a lock per occurrence; default
   * empty: a lock claim per occurrence.
   */
  String leaderRole() default "";
}
