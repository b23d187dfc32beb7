package io.hostloom.scheduling;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/** Argument checks and arithmetic shared by options and triggers. */
final class Durations {
  private Durations() {}

  static Duration positive(String what, Duration d) {
    Objects.requireNonNull(d, what);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(what + " must be positive but was " + d);
    }
    return d;
  }

  static Duration notNegative(String what, Duration d) {
    Objects.requireNonNull(d, what);
    if (d.isNegative()) {
      throw new IllegalArgumentException(what + " must not be negative but was " + d);
    }
    return d;
  }

  static long nanosSinceEpoch(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
  }
}
