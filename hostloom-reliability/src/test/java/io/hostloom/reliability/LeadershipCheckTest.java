package io.hostloom.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.reliability.LeadershipCheck.Window;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checker itself: a clean run passes, each kind of bad history is caught. */
class LeadershipCheckTest {
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final long S = 1_000_000_000L;

  @Test
  void windowsComeFromChangeLinesAndAnOpenWindowEndsAtTheGivenTime() {
    List<Window> w =
        LeadershipCheck.windows(
            "p1",
            List.of(
                "@CHANGE ACQUIRED 5 100 -",
                "@CHANGE LOST 5 200 expired",
                "@CHANGE ACQUIRED 9 300 -"),
            400);
    assertThat(w)
        .containsExactly(
            new Window("p1", 5, 100, 200, false), new Window("p1", 9, 300, 400, false));
  }

  @Test
  void aCleanHandOverPasses() {
    List<Window> clean =
        List.of(new Window("a", 1, 0, 10 * S, false), new Window("b", 7, 11 * S, 20 * S, false));
    assertThat(LeadershipCheck.violations(clean, LEASE)).isEmpty();
  }

  @Test
  void aTermLedTwiceTermsGoingBackAndAnOverlapLongerThanALeaseAreEachCaught() {
    assertThat(
            LeadershipCheck.violations(
                List.of(new Window("a", 3, 0, S, false), new Window("b", 3, 2 * S, 3 * S, false)),
                LEASE))
        .hasSize(2) // led twice, and not increasing
        .anySatisfy(v -> assertThat(v).contains("led twice"));
    assertThat(
            LeadershipCheck.violations(
                List.of(new Window("a", 4, 0, S, false), new Window("b", 2, 2 * S, 3 * S, false)),
                LEASE))
        .singleElement()
        .asString()
        .contains("started after term 4");
    List<Window> overlapping =
        List.of(new Window("a", 1, 0, 10 * S, false), new Window("b", 2, 5 * S, 12 * S, false));
    assertThat(LeadershipCheck.violations(overlapping, LEASE))
        .singleElement()
        .asString()
        .contains("more than one lease");
    assertThat(LeadershipCheck.maxOverlapNanos(overlapping)).isEqualTo(5 * S);
    List<Window> frozen =
        List.of(new Window("a", 1, 0, 10 * S, true), new Window("b", 2, 5 * S, 12 * S, false));
    assertThat(LeadershipCheck.violations(frozen, LEASE)).isEmpty();
  }
}
