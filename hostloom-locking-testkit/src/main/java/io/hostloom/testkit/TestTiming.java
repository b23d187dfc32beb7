package io.hostloom.testkit;

import io.hostloom.locking.testing.ManualLockClock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Real-time waits for tests against real servers, scaled for slow machines (Curator's {@code
 * Timing} habit) and done by polling (Lettuce's {@code Wait} habit) instead of sleeping a guessed
 * amount.
 *
 * <p>Every timeout given to this class is multiplied by the system property {@value
 * #TIME_FACTOR_PROPERTY} (default {@code 1}; e.g. {@code -Dhostloom.test.timeFactor=3} on a slow CI
 * machine). Lease lengths are <em>not</em> scaled: they are what the server enforces; only how long
 * a test is willing to wait for something is.
 *
 * <p>Never use this for kernel timing: that runs on {@link ManualLockClock}.
 */
public final class TestTiming {
  /** The system property holding the factor by which every test timeout is multiplied. */
  public static final String TIME_FACTOR_PROPERTY = "hostloom.test.timeFactor";

  private static final long MAX_POLL_NANOS = Duration.ofMillis(25).toNanos();

  private TestTiming() {}

  /**
   * The factor from {@value #TIME_FACTOR_PROPERTY}; {@code 1} when unset.
   *
   * @throws IllegalStateException when the property is not a positive number
   */
  public static double factor() {
    String raw = System.getProperty(TIME_FACTOR_PROPERTY, "1").trim();
    double f;
    try {
      f = Double.parseDouble(raw.isEmpty() ? "1" : raw);
    } catch (NumberFormatException e) {
      throw new IllegalStateException(
          TIME_FACTOR_PROPERTY + " must be a positive number but was " + raw, e);
    }
    if (!(f > 0) || Double.isInfinite(f)) {
      throw new IllegalStateException(
          TIME_FACTOR_PROPERTY + " must be a positive number but was " + raw);
    }
    return f;
  }

  /** {@code timeout} multiplied by {@link #factor()}. */
  public static Duration scaled(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    return Duration.ofNanos((long) Math.ceil(timeout.toNanos() * factor()));
  }

  /**
   * Polls {@code condition} until it is true, first immediately, then with a growing pause (up to
   * 25 ms) between polls.
   *
   * @param description what is awaited, for the failure message
   * @param timeout the unscaled timeout; the wait gives up after {@link #scaled(Duration)} of it
   * @throws AssertionError when the condition is still false after the scaled timeout
   * @throws IllegalStateException wrapping an interruption (the interrupt flag is set again)
   */
  public static void await(String description, BooleanSupplier condition, Duration timeout) {
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(condition, "condition");
    long limit = scaled(timeout).toNanos();
    long start = System.nanoTime();
    long pause = 1_000_000L;
    while (!condition.getAsBoolean()) {
      long waited = System.nanoTime() - start;
      if (waited >= limit) {
        throw new AssertionError(
            "timed out after " + Duration.ofNanos(waited) + " waiting until " + description);
      }
      LockSupport.parkNanos(Math.min(pause, limit - waited));
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted waiting until " + description);
      }
      pause = Math.min(pause * 2, MAX_POLL_NANOS);
    }
  }

  /** {@link #await(String, BooleanSupplier, Duration)} with a generic description. */
  public static void await(BooleanSupplier condition, Duration timeout) {
    await("the condition holds", condition, timeout);
  }

  /**
   * Waits for {@code future}, at most {@code timeout} scaled.
   *
   * @return the future's value
   * @throws AssertionError when it did not complete in time
   * @throws CompletionFailure when it completed exceptionally (the cause is the future's failure)
   * @throws IllegalStateException wrapping an interruption (the interrupt flag is set again)
   */
  public static <T> T get(CompletableFuture<T> future, Duration timeout) {
    Objects.requireNonNull(future, "future");
    Duration limit = scaled(timeout);
    try {
      return future.get(limit.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("no answer within " + limit, e);
    } catch (ExecutionException e) {
      throw new CompletionFailure(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for a future", e);
    }
  }

  /**
   * Sleeps at least {@code duration} of real time (unscaled: it stands for time that must pass on a
   * server's clock, e.g. a lease running out). Prefer {@link #await} whenever there is something to
   * poll.
   */
  public static void pass(Duration duration) {
    long end = System.nanoTime() + duration.toNanos();
    long left;
    while ((left = end - System.nanoTime()) > 0) {
      LockSupport.parkNanos(left);
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while letting " + duration + " pass");
      }
    }
  }

  /** A future that completed exceptionally in {@link #get}; its cause is the future's failure. */
  public static final class CompletionFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CompletionFailure(Throwable cause) {
      super("the future failed: " + cause, cause);
    }
  }
}
