package io.hostloom.quarkus;

import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * Runs the annotated CDI bean method under the application's {@code DistributedLock}: the key is
 * acquired before the method runs (on the calling thread, waiting per the lock's retry policy and
 * {@link #maxWait()}) and released in a {@code finally} when it returns or throws, through {@code
 * DistributedLock.executeWithLock}. What the method throws propagates unchanged.
 *
 * <p><b>Not acquired.</b> When the key stays held by another owner for every attempt the retry
 * policy and {@code maxWait} allow, the method does not run and the call throws the kernel's {@link
 * io.hostloom.locking.LockNotAcquiredException}; a backend failure throws {@link
 * io.hostloom.locking.LockBackendUnavailableException}; an interrupt while waiting throws {@link
 * io.hostloom.locking.LockInterruptedException} with the interrupt flag set again. A method of the
 * same bean called through {@code this} is not intercepted (CDI's rule); a nested call for a key
 * the thread holds fails with {@link io.hostloom.locking.LockReentrancyException} unless {@code
 * hostloom.locking.detect-reentrancy=false}.
 *
 * <p>Durations take Quarkus' forms ({@code 10s}, {@code 250ms}, {@code PT10S}); an empty value
 * takes the lock's default ({@code hostloom.locking.default-lease}; for {@code maxWait}, the one
 * the kernel derives from the retry policy). On a type, it applies to every business method.
 */
@InterceptorBinding
@Retention(RUNTIME)
@Target({METHOD, TYPE})
@Documented
public @interface WithLock {
  /** The lock key (opaque, no whitespace); the backend sees {@code <namespace>:lock:<key>}. */
  @Nonbinding
  String value();

  /** The lease of the acquisition; empty: {@code hostloom.locking.default-lease}. */
  @Nonbinding
  String lease() default "";

  /** How long to wait for the key at most; {@code 0s}: one attempt; empty: the kernel's. */
  @Nonbinding
  String maxWait() default "";

  /** Whether the lease is extended while the method runs; empty: the lock's auto-extend. */
  @Nonbinding
  String autoExtend() default "";
}
