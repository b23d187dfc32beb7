package io.hostloom.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Parses a duration option: a number with a unit ({@code 500ms}, {@code 10s}, {@code 5m}, {@code
 * 2h}, {@code 1d}; a bare number is seconds) or ISO-8601 ({@code PT10S}). Negative values are
 * rejected: every duration of the command line is a length of time.
 */
final class Durations implements ITypeConverter<Duration> {
  private static final Pattern SIMPLE = Pattern.compile("(-?\\d+)(ms|s|m|h|d)?");

  @Override
  public Duration convert(String value) {
    return parse(value);
  }

  /**
   * @throws TypeConversionException when {@code value} is not a duration or is negative
   */
  static Duration parse(String value) {
    String v = value.strip().toLowerCase(Locale.ROOT);
    Duration d;
    Matcher m = SIMPLE.matcher(v);
    try {
      if (m.matches()) {
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        d =
            switch (unit) {
              case "ms" -> Duration.ofMillis(n);
              case "m" -> Duration.ofMinutes(n);
              case "h" -> Duration.ofHours(n);
              case "d" -> Duration.ofDays(n);
              default -> Duration.ofSeconds(n);
            };
      } else {
        d = Duration.parse(value.strip());
      }
    } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
      throw new TypeConversionException(
          "'" + value + "' is not a duration (e.g. 500ms, 10s, 5m, 2h, 1d or PT10S)");
    }
    if (d.isNegative()) {
      throw new TypeConversionException("must not be negative but was '" + value + "'");
    }
    return d;
  }

  /** A duration for messages: {@code 1.5s}, {@code 250ms}. */
  static String format(Duration d) {
    long ms = d.toMillis();
    return ms < 1000 ? ms + "ms" : String.format(Locale.ROOT, "%.1fs", ms / 1000.0);
  }
}
