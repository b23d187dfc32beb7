package io.hostloom.micronaut;

import static java.lang.annotation.RetentionPolicy.RUNTIME;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockNotAcquiredException;
import io.micronaut.aop.Around;
import io.micronaut.context.annotation.Type;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * Runs the annotated method of a Micronaut bean under the {@link DistributedLock} bean's lock on
 * {@link #value()}: acquired before the method starts, released when it returns or throws (what it
 * throws propagates unchanged). The method runs on the calling thread, so it is for blocking
 * methods; a method returning a future or a publisher is held only until it returns.
 *
 * <p><b>When the lock is not acquired</b> the method does not run: the call throws the kernel's
 * {@link LockNotAcquiredException} when the key stayed busy for every attempt of the retry policy
 * ({@code hostloom.locking.retry}) within {@link #maxWait()}, {@code
 * LockBackendUnavailableException} when the backend failed, {@code LockInterruptedException} when
 * the calling thread was interrupted while waiting (the flag is set again), and {@code
 * LockReentrancyException} when the thread already holds the key through this advice (with {@code
 * hostloom.locking.detect-reentrancy}, the default).
 *
 * <p><b>The lease</b> is {@link #lease()}, or {@code hostloom.locking.default-lease} when empty; it
 * can run out while the method still runs (unless {@code hostloom.locking.auto-extend}), so keep
 * correctness in the protected resource.
 */
@Documented
@Retention(RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
@Around
@Type(WithLockInterceptor.class)
public @interface WithLock {
  /** The lock key (opaque; no whitespace; the lock adds its namespace). */
  String value();

  /**
   * The lease, in Micronaut's duration forms ({@code 30s}, {@code 500ms}, {@code PT30S}); empty:
   * the lock's default lease.
   */
  String lease() default "";

  /**
   * The longest wait for the lock, in Micronaut's duration forms; {@code 0s} is one attempt (skip
   * if busy); empty: bounded by the retry policy alone.
   */
  String maxWait() default "";
}
