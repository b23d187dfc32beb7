package io.hostloom.micronaut;

import io.hostloom.locking.LockRetrySpec;
import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code hostloom.locking.*}: the {@link io.hostloom.locking.DistributedLock}'s settings, under the
 * Spring Boot starter's names ({@code namespace}, {@code enabled}, {@code default-lease}, {@code
 * max-lease}, {@code max-hold}, {@code strict-max-hold}, {@code wake-on-release}, {@code retry},
 * {@code auto-extend}, {@code detect-reentrancy}, {@code max-key-length}), so a configuration moves
 * across unchanged. A setting left out keeps the kernel's {@code LockingOptions.DEFAULT_*} value;
 * {@code retry} takes the text forms of {@link LockRetrySpec}. Durations take Micronaut's forms
 * ({@code 30s}, {@code 500ms}, {@code PT30S}). The kernel's rules check them when the lock bean is
 * built: one start-up failure lists every problem.
 */
@ConfigurationProperties("hostloom.locking")
public interface LockingConfiguration {
  /** The lock namespace (lower-case letters, digits and dashes; prefixes every key). Required. */
  Optional<String> getNamespace();

  /** Whether locks coordinate through the backend; false runs actions without locking. */
  Optional<Boolean> getEnabled();

  /** The lease of an acquisition that asks for none. */
  Optional<Duration> getDefaultLease();

  /** The longest lease an acquisition or extension may get (longer requests are capped). */
  Optional<Duration> getMaxLease();

  /** How long automatic extension keeps a lock at most. */
  Optional<Duration> getMaxHold();

  /** Whether the last automatic extension ends the lease exactly at request + max-hold. */
  Optional<Boolean> getStrictMaxHold();

  /** Whether a waiting acquisition also tries when the backend signals a release. */
  Optional<Boolean> getWakeOnRelease();

  /**
   * The retry policy between attempts, e.g. {@code linear:10x50ms+50ms} ({@link LockRetrySpec}).
   */
  Optional<String> getRetry();

  /** Whether held locks are extended automatically (at half the remaining lease). */
  Optional<Boolean> getAutoExtend();

  /** Whether a nested acquisition of a key the same thread holds fails fast. */
  Optional<Boolean> getDetectReentrancy();

  /** The longest key accepted, in UTF-16 units. */
  Optional<Integer> getMaxKeyLength();
}
