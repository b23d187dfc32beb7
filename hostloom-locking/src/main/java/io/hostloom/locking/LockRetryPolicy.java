package io.hostloom.locking;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The wait between acquisition attempts. Immutable. Retry {@code k} (counted from 1, the wait after
 * the {@code k}-th failed attempt) waits {@link #getDelay(int)}: the shape's base delay plus, with
 * {@link #withJitter}, a uniform random extra in {@code [0, jitter)}. {@link #retryLimit()} is the
 * number of retries after the first attempt, so limit 2 allows up to 3 attempts.
 *
 * <p>{@code LockOptions.maxWait} bounds the total wait on top of the policy. The default, {@link
 * #defaultPolicy()}, is {@code linear(10, 50 ms).withJitter(50 ms)}: 50, 100, ... 500 ms plus up to
 * 50 ms each, at most 3 250 ms in total.
 */
public final class LockRetryPolicy {
  private enum Shape {
    IMMEDIATE,
    INTERVAL,
    LINEAR,
    EXPONENTIAL
  }

  private static final LockRetryPolicy DEFAULT =
      linear(10, Duration.ofMillis(50)).withJitter(Duration.ofMillis(50));

  private final Shape shape;
  private final int retryLimit;
  private final long baseNanos; // interval, step or exponential minimum
  private final long maxNanos; // exponential maximum
  private final double factor;
  private final long jitterNanos;

  private LockRetryPolicy(
      Shape shape, int retryLimit, long baseNanos, long maxNanos, double factor, long jitterNanos) {
    this.shape = shape;
    this.retryLimit = retryLimit;
    this.baseNanos = baseNanos;
    this.maxNanos = maxNanos;
    this.factor = factor;
    this.jitterNanos = jitterNanos;
  }

  /** {@code linear(10, 50 ms).withJitter(50 ms)}: the seed's historical behaviour. */
  public static LockRetryPolicy defaultPolicy() {
    return DEFAULT;
  }

  /** {@code retryLimit} retries without waiting. */
  public static LockRetryPolicy immediate(int retryLimit) {
    return new LockRetryPolicy(Shape.IMMEDIATE, checkLimit(retryLimit), 0, 0, 1, 0);
  }

  /** {@code retryLimit} retries, each after {@code interval}. */
  public static LockRetryPolicy interval(int retryLimit, Duration interval) {
    return new LockRetryPolicy(
        Shape.INTERVAL, checkLimit(retryLimit), nonNegative("interval", interval), 0, 1, 0);
  }

  /** {@code retryLimit} retries; retry {@code k} waits {@code k * step}. */
  public static LockRetryPolicy linear(int retryLimit, Duration step) {
    return new LockRetryPolicy(
        Shape.LINEAR, checkLimit(retryLimit), nonNegative("step", step), 0, 1, 0);
  }

  /** {@link #exponential(int, Duration, Duration, double)} with factor 2. */
  public static LockRetryPolicy exponential(int retryLimit, Duration min, Duration max) {
    return exponential(retryLimit, min, max, 2.0);
  }

  /**
   * {@code retryLimit} retries; retry {@code k} waits {@code min * factor^(k-1)}, at most {@code
   * max}. Computed in floating point, so large {@code k} cannot overflow. {@code min = 0} makes
   * every wait zero.
   *
   * @throws IllegalArgumentException when a duration is negative, {@code max < min} or {@code
   *     factor < 1}
   */
  public static LockRetryPolicy exponential(
      int retryLimit, Duration min, Duration max, double factor) {
    long minN = nonNegative("min", min);
    long maxN = nonNegative("max", max);
    if (maxN < minN) {
      throw new IllegalArgumentException("max must be >= min (" + min + ") but was " + max);
    }
    if (!(factor >= 1.0) || Double.isInfinite(factor)) {
      throw new IllegalArgumentException("factor must be a finite number >= 1 but was " + factor);
    }
    return new LockRetryPolicy(Shape.EXPONENTIAL, checkLimit(retryLimit), minN, maxN, factor, 0);
  }

  /**
   * A copy that adds a uniform random extra in {@code [0, jitter)} to every delay, replacing any
   * previous jitter.
   */
  public LockRetryPolicy withJitter(Duration jitter) {
    return new LockRetryPolicy(
        shape, retryLimit, baseNanos, maxNanos, factor, nonNegative("jitter", jitter));
  }

  /** Retries after the first attempt. */
  public int retryLimit() {
    return retryLimit;
  }

  public Duration jitter() {
    return Duration.ofNanos(jitterNanos);
  }

  /**
   * The delay before retry {@code k} without jitter.
   *
   * @throws IllegalArgumentException when {@code k < 1}
   */
  public Duration getBaseDelay(int k) {
    return Duration.ofNanos(baseNanos(k));
  }

  /**
   * The delay before retry {@code k}, jitter included.
   *
   * @throws IllegalArgumentException when {@code k < 1}
   */
  public Duration getDelay(int k) {
    return Duration.ofNanos(delayNanos(k));
  }

  /** The sum of the base delays of every retry plus {@code jitter * retryLimit}. */
  public Duration maxTotalDelay() {
    double total = 0;
    long last = -1;
    if (shape == Shape.LINEAR) {
      total = (double) baseNanos * retryLimit * (retryLimit + 1.0) / 2; // closed form
    }
    for (int k = 1; shape != Shape.LINEAR && k <= retryLimit; k++) {
      long d = baseNanos(k);
      if (d == last) {
        total += (double) d * (retryLimit - k + 1); // constant from here on
        break;
      }
      total += d;
      last = d;
    }
    total += (double) jitterNanos * retryLimit;
    return Duration.ofNanos(total >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) total);
  }

  /**
   * E.g. {@code linear step 50 ms, 10 retries, jitter 50 ms}; forms: {@code immediate, N retries},
   * {@code interval X ms, N retries}, {@code linear step X ms, N retries}, {@code exponential A ms
   * to B ms x F, N retries}, with the suffix {@code , jitter J ms} when there is jitter.
   */
  public String description() {
    StringBuilder sb = new StringBuilder();
    switch (shape) {
      case IMMEDIATE -> sb.append("immediate");
      case INTERVAL -> sb.append("interval ").append(ms(baseNanos));
      case LINEAR -> sb.append("linear step ").append(ms(baseNanos));
      case EXPONENTIAL ->
          sb.append("exponential ")
              .append(ms(baseNanos))
              .append(" to ")
              .append(ms(maxNanos))
              .append(" x ")
              .append(BigDecimal.valueOf(factor).stripTrailingZeros().toPlainString());
    }
    sb.append(", ").append(retryLimit).append(retryLimit == 1 ? " retry" : " retries");
    if (jitterNanos > 0) {
      sb.append(", jitter ").append(ms(jitterNanos));
    }
    return sb.toString();
  }

  long baseNanos(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("retry index must be >= 1 but was " + k);
    }
    return switch (shape) {
      case IMMEDIATE -> 0;
      case INTERVAL -> baseNanos;
      case LINEAR -> saturate((double) baseNanos * k);
      case EXPONENTIAL ->
          baseNanos == 0
              ? 0
              : Math.min(maxNanos, saturate(baseNanos * Math.pow(factor, (double) k - 1)));
    };
  }

  long delayNanos(int k) {
    long base = baseNanos(k);
    if (jitterNanos == 0) {
      return base;
    }
    long extra = ThreadLocalRandom.current().nextLong(jitterNanos);
    return base > Long.MAX_VALUE - extra ? Long.MAX_VALUE : base + extra;
  }

  private static long saturate(double nanos) {
    return nanos >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) nanos;
  }

  static String ms(long nanos) {
    if (nanos % 1_000_000 == 0) {
      return (nanos / 1_000_000) + " ms";
    }
    return BigDecimal.valueOf(nanos, 6).stripTrailingZeros().toPlainString() + " ms";
  }

  private static int checkLimit(int retryLimit) {
    if (retryLimit < 0) {
      throw new IllegalArgumentException("retryLimit must be >= 0 but was " + retryLimit);
    }
    return retryLimit;
  }

  private static long nonNegative(String name, Duration d) {
    Objects.requireNonNull(d, name);
    if (d.isNegative()) {
      throw new IllegalArgumentException(name + " must not be negative but was " + d);
    }
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LockRetryPolicy p
        && shape == p.shape
        && retryLimit == p.retryLimit
        && baseNanos == p.baseNanos
        && maxNanos == p.maxNanos
        && Double.compare(factor, p.factor) == 0
        && jitterNanos == p.jitterNanos;
  }

  @Override
  public int hashCode() {
    return Objects.hash(shape, retryLimit, baseNanos, maxNanos, factor, jitterNanos);
  }

  @Override
  public String toString() {
    return "LockRetryPolicy[" + description() + "]";
  }
}
