package io.hostloom.locking;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text form of a {@link LockRetryPolicy}, so {@code hostloom.locking.retry} can be set in any
 * framework's configuration (the Spring Boot starter, the Quarkus extension):
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
 * The durations are read by the caller's parser, so each framework keeps its own duration forms.
 */
public final class LockRetrySpec {
  private static final Pattern SPEC =
      Pattern.compile(
          "(?<kind>[a-z]+)(?::(?<n>\\d{1,9})(?:x(?<a>[^.+*]+)(?:\\.\\.(?<b>[^+*]+))?"
              + "(?:\\*(?<f>[0-9]+(?:\\.[0-9]+)?))?)?)?(?:\\+(?<j>.+))?");

  private LockRetrySpec() {}

  /**
   * Parses {@code spec}, reading each duration with {@code durations} (which throws {@link
   * IllegalArgumentException} for a bad one).
   *
   * @throws IllegalArgumentException naming {@value LockingOptions#KEY_RETRY}, the expected forms
   *     and the bad value
   */
  public static LockRetryPolicy parse(String spec, Function<String, Duration> durations) {
    Objects.requireNonNull(durations, "durations");
    if (spec == null || spec.isBlank()) {
      throw invalid(spec, "it is empty");
    }
    Matcher m = SPEC.matcher(spec.strip().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw invalid(spec, "it does not match any form");
    }
    try {
      LockRetryPolicy policy = shape(m.group("kind"), m, spec, durations);
      String jitter = m.group("j");
      return jitter == null ? policy : policy.withJitter(duration(jitter, spec, durations));
    } catch (IllegalArgumentException e) {
      if (e.getMessage() != null && e.getMessage().startsWith(LockingOptions.KEY_RETRY)) {
        throw e;
      }
      throw invalid(spec, e.getMessage());
    }
  }

  private static LockRetryPolicy shape(
      String kind, Matcher m, String spec, Function<String, Duration> durations) {
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
        return LockRetryPolicy.interval(Integer.parseInt(n), duration(a, spec, durations));
      case "linear":
        require(n != null && a != null && b == null && f == null, spec, "use linear:NxSTEP");
        return LockRetryPolicy.linear(Integer.parseInt(n), duration(a, spec, durations));
      case "exponential":
        require(n != null && a != null && b != null, spec, "use exponential:NxMIN..MAX[*FACTOR]");
        return LockRetryPolicy.exponential(
            Integer.parseInt(n),
            duration(a, spec, durations),
            duration(b, spec, durations),
            f == null ? 2.0 : Double.parseDouble(f));
      default:
        throw invalid(spec, "unknown kind '" + kind + "'");
    }
  }

  private static Duration duration(String text, String spec, Function<String, Duration> durations) {
    Duration d;
    try {
      d = durations.apply(text.strip());
    } catch (RuntimeException e) {
      throw invalid(spec, "'" + text + "' is not a duration");
    }
    if (d == null) {
      throw invalid(spec, "'" + text + "' is not a duration");
    }
    return d;
  }

  private static void require(boolean ok, String spec, String hint) {
    if (!ok) {
      throw invalid(spec, hint);
    }
  }

  private static IllegalArgumentException invalid(String spec, String why) {
    return new IllegalArgumentException(
        LockingOptions.KEY_RETRY
            + " must be default, immediate:N, interval:NxD, linear:NxSTEP or"
            + " exponential:NxMIN..MAX[*FACTOR], optionally followed by +JITTER (e.g."
            + " linear:10x50ms+50ms), but was '"
            + spec
            + "' ("
            + why
            + ")");
  }
}
