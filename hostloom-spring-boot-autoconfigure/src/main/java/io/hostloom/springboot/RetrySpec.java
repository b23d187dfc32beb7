package io.hostloom.springboot;

import io.hostloom.locking.LockRetryPolicy;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.convert.DurationStyle;

/**
 * The text form of a {@link LockRetryPolicy}, so {@code hostloom.locking.retry} can be set in
 * configuration:
 *
 * <ul>
 *   <li>{@code default}: {@link LockRetryPolicy#defaultPolicy()} ({@code linear:10x50ms+50ms})
 *   <li>{@code immediate:N}: N retries without waiting
 *   <li>{@code interval:NxD}: N retries, each after D
 *   <li>{@code linear:NxSTEP}: N retries, retry k after k × STEP
 *   <li>{@code exponential:NxMIN..MAX} or {@code exponential:NxMIN..MAX*FACTOR} (factor 2 by
 *       default)
 *   <li>any of these followed by {@code +JITTER}: a uniform random extra in [0, JITTER)
 * </ul>
 *
 * Durations use Spring Boot's simple form ({@code 50ms}, {@code 2s}) or ISO-8601 ({@code PT0.05S}).
 */
public final class RetrySpec {
  private static final Pattern SPEC =
      Pattern.compile(
          "(?<kind>[a-z]+)(?::(?<n>\\d{1,9})(?:x(?<a>[^.+*]+)(?:\\.\\.(?<b>[^+*]+))?"
              + "(?:\\*(?<f>[0-9]+(?:\\.[0-9]+)?))?)?)?(?:\\+(?<j>.+))?");

  private RetrySpec() {}

  /**
   * Parses {@code spec}.
   *
   * @throws IllegalArgumentException naming the expected forms and the bad value
   */
  public static LockRetryPolicy parse(String spec) {
    if (spec == null || spec.isBlank()) {
      throw invalid(spec, "it is empty");
    }
    String s = spec.strip();
    Matcher m = SPEC.matcher(s.toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw invalid(spec, "it does not match any form");
    }
    String kind = m.group("kind");
    try {
      LockRetryPolicy policy = shape(kind, m, spec);
      String jitter = m.group("j");
      return jitter == null ? policy : policy.withJitter(duration(jitter, spec));
    } catch (IllegalArgumentException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("hostloom.locking.retry")) {
        throw e;
      }
      throw invalid(spec, e.getMessage());
    }
  }

  private static LockRetryPolicy shape(String kind, Matcher m, String spec) {
    String n = m.group("n");
    String a = m.group("a");
    String b = m.group("b");
    String f = m.group("f");
    switch (kind) {
      case "default":
        require(n == null, spec, "default takes no arguments");
        return LockRetryPolicy.defaultPolicy();
      case "immediate":
        require(n != null && a == null, spec, "immediate needs the form immediate:N");
        return LockRetryPolicy.immediate(Integer.parseInt(n));
      case "interval":
        require(n != null && a != null && b == null && f == null, spec, "use interval:NxD");
        return LockRetryPolicy.interval(Integer.parseInt(n), duration(a, spec));
      case "linear":
        require(n != null && a != null && b == null && f == null, spec, "use linear:NxSTEP");
        return LockRetryPolicy.linear(Integer.parseInt(n), duration(a, spec));
      case "exponential":
        require(n != null && a != null && b != null, spec, "use exponential:NxMIN..MAX[*FACTOR]");
        return LockRetryPolicy.exponential(
            Integer.parseInt(n),
            duration(a, spec),
            duration(b, spec),
            f == null ? 2.0 : Double.parseDouble(f));
      default:
        throw invalid(spec, "unknown kind '" + kind + "'");
    }
  }

  private static Duration duration(String text, String spec) {
    try {
      return DurationStyle.detectAndParse(text.strip());
    } catch (IllegalArgumentException e) {
      throw invalid(spec, "'" + text + "' is not a duration");
    }
  }

  private static void require(boolean ok, String spec, String hint) {
    if (!ok) {
      throw invalid(spec, hint);
    }
  }

  private static IllegalArgumentException invalid(String spec, String why) {
    return new IllegalArgumentException(
        "hostloom.locking.retry must be default, immediate:N, interval:NxD, linear:NxSTEP or"
            + " exponential:NxMIN..MAX[*FACTOR], optionally followed by +JITTER (e.g."
            + " linear:10x50ms+50ms), but was '"
            + spec
            + "' ("
            + why
            + ")");
  }
}
