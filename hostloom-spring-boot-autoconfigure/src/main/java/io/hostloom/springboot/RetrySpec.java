package io.hostloom.springboot;

import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockRetrySpec;
import org.springframework.boot.convert.DurationStyle;

/**
 * {@code hostloom.locking.retry}: the kernel's {@link LockRetrySpec} forms, with durations in
 * Spring Boot's simple form ({@code 50ms}, {@code 2s}) or ISO-8601 ({@code PT0.05S}).
 */
public final class RetrySpec {
  private RetrySpec() {}

  /**
   * Parses {@code spec}.
   *
   * @throws IllegalArgumentException naming the expected forms and the bad value
   */
  public static LockRetryPolicy parse(String spec) {
    return LockRetrySpec.parse(spec, DurationStyle::detectAndParse);
  }
}
