package io.hostloom.reliability;

import java.time.Duration;

/**
 * CI or soak: every scenario reads its size from here. CI (the default) keeps the whole module to a
 * few minutes on two cores; the soak variant ({@code -Psoak}, i.e. {@code
 * -Dhostloom.reliability.soak=true}) runs the same scenarios far longer and more often.
 */
final class Soak {
  /** The system property that switches to the soak variant. */
  static final String PROPERTY = "hostloom.reliability.soak";

  private Soak() {}

  static boolean enabled() {
    return Boolean.getBoolean(PROPERTY);
  }

  /** {@code ci} normally, {@code soak} in the soak variant. */
  static int pick(int ci, int soak) {
    return enabled() ? soak : ci;
  }

  static Duration pick(Duration ci, Duration soak) {
    return enabled() ? soak : ci;
  }

  /**
   * The longest contention run per backend in the soak variant: {@code
   * -Dhostloom.reliability.soak.contention=PT1H} (ISO-8601), default 20 minutes.
   */
  static Duration contentionCap() {
    return Duration.parse(System.getProperty(PROPERTY + ".contention", "PT20M"));
  }

  static String variant() {
    return enabled() ? "soak" : "ci";
  }
}
