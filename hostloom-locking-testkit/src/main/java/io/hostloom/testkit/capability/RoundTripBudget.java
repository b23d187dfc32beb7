package io.hostloom.testkit.capability;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The round trips a backend declares per SPI operation and outcome ({@link Case}); checked by
 * {@link RoundTripBudgetSuite}. Immutable: {@link #everyCase(int)} then {@link #with} per case that
 * differs. The figures are the ones the backend's README documents.
 */
public final class RoundTripBudget {

  /** One operation in one outcome. */
  public enum Case {
    ACQUIRE_FREE("acquire, free key"),
    ACQUIRE_SAME_OWNER("acquire, same owner again"),
    ACQUIRE_HELD("acquire, held by another owner"),
    ACQUIRE_EXPIRED("acquire, over an expired lease"),
    EXTEND("extend"),
    EXTEND_NOT_OWNER("extend, another owner's lease"),
    EXTEND_ABSENT("extend, no lease"),
    RELEASE("release"),
    RELEASE_NOT_OWNER("release, another owner's lease"),
    RELEASE_ABSENT("release, no lease"),
    REPLACE("replace"),
    REPLACE_MISMATCH("replace, another owner's lease"),
    REPLACE_ABSENT("replace, no lease"),
    READ_LIVE("read, live lease"),
    READ_ABSENT("read, free key"),
    READ_EXPIRED("read, expired lease"),
    /** {@code checkHealth} of a {@link io.hostloom.locking.spi.BackendHealthProbe}. */
    HEALTH_PROBE("checkHealth"),
    /**
     * Twenty {@code awaitRelease} waits of a {@link io.hostloom.locking.spi.ReleaseSignal}, started
     * and ended, once its signal is ready.
     */
    AWAIT_RELEASE("awaitRelease x 20, ended");

    private final String label;

    Case(String label) {
      this.label = label;
    }

    /** A human label for reports, e.g. {@code "acquire, free key"}. */
    public String label() {
      return label;
    }
  }

  private final Map<Case, Integer> expected;

  private RoundTripBudget(Map<Case, Integer> expected) {
    this.expected = Collections.unmodifiableMap(expected);
  }

  /**
   * {@code roundTrips} for every case (the capability cases too; a backend without the capability
   * never runs them).
   *
   * @throws IllegalArgumentException when {@code roundTrips} is negative
   */
  public static RoundTripBudget everyCase(int roundTrips) {
    check(roundTrips);
    Map<Case, Integer> m = new EnumMap<>(Case.class);
    for (Case c : Case.values()) {
      m.put(c, roundTrips);
    }
    return new RoundTripBudget(m);
  }

  /** A copy with {@code roundTrips} for {@code c}. */
  public RoundTripBudget with(Case c, int roundTrips) {
    Objects.requireNonNull(c, "case");
    check(roundTrips);
    Map<Case, Integer> m = new EnumMap<>(expected);
    m.put(c, roundTrips);
    return new RoundTripBudget(m);
  }

  /** The round trips declared for {@code c}. */
  public int of(Case c) {
    return expected.get(Objects.requireNonNull(c, "case"));
  }

  private static void check(int roundTrips) {
    if (roundTrips < 0) {
      throw new IllegalArgumentException("roundTrips must not be negative but was " + roundTrips);
    }
  }

  @Override
  public String toString() {
    return "RoundTripBudget" + expected;
  }
}
