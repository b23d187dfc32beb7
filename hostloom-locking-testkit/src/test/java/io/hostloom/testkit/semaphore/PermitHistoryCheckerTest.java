package io.hostloom.testkit.semaphore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.testkit.HistoryReport;
import io.hostloom.testkit.LockEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checker's self-test: it fails on bad histories and passes on good ones at the edges. */
class PermitHistoryCheckerTest {
  private static final long LEASE = 100;

  private final List<LockEvent> events = new ArrayList<>();

  /** A permit on {@code slot}, sent at {@code sent}, seen at {@code at}, exited at {@code exit}. */
  private void hold(String slot, String holder, long token, long sent, long at, long exit) {
    events.add(new LockEvent(LockEvent.Type.ENTER, slot, holder, token, sent, at, LEASE));
    if (exit >= 0) {
      events.add(new LockEvent(LockEvent.Type.EXIT, slot, holder, token, exit, exit, 0));
    }
  }

  @Test
  void threeOverlappingPermitsOfTwoAreAViolation() {
    hold("s#0", "a", 1, 0, 1, 50);
    hold("s#1", "b", 1, 0, 2, 50);
    hold("s#2", "c", 1, 0, 3, 50);
    PermitHistoryReport r = PermitHistoryChecker.check(events, 2);
    assertThat(r.ok()).isFalse();
    assertThat(r.violations()).isEqualTo(1);
    assertThat(r.maxHeld()).isEqualTo(3);
    assertThat(r.described().get(0)).contains("c@s#2");
    assertThat(r.slots().ok()).as("each slot alone is fine").isTrue();
    assertThatThrownBy(r::assertNoViolations)
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("1 permit-count violations");
  }

  @Test
  void aDeadHoldersPermitCountsUntilItsLeaseEnd() {
    hold("s#0", "dead", 1, 0, 5, -1); // never exits: counts until 0 + LEASE
    hold("s#1", "b", 1, 10, 20, 30);
    assertThat(PermitHistoryChecker.check(events, 1).violations()).isEqualTo(1);

    events.clear();
    hold("s#0", "dead", 1, 0, 5, -1);
    hold("s#1", "b", 1, 90, LEASE, 130); // granted at the dead lease's end: half open, no overlap
    PermitHistoryReport ok = PermitHistoryChecker.check(events, 1);
    assertThat(ok.ok()).as(ok.summary()).isTrue();
    assertThat(ok.maxHeld()).isEqualTo(1);
  }

  @Test
  void anExtensionMovesTheLeaseEnd() {
    hold("s#0", "a", 1, 0, 5, -1);
    events.add(new LockEvent(LockEvent.Type.EXTEND, "s#0", "a", 1, 50, 55, LEASE)); // lease to 150
    hold("s#1", "b", 1, 110, 120, 130);
    assertThat(PermitHistoryChecker.check(events, 1).violations()).isEqualTo(1);
  }

  @Test
  void anExtensionSentBeforeThePreviousAnswerKeepsTheSmallerEnd() {
    events.add(new LockEvent(LockEvent.Type.ENTER, "s#0", "a", 1, 0, 50, LEASE));
    events.add(
        new LockEvent(LockEvent.Type.EXTEND, "s#0", "a", 1, 40, 60, 10)); // sent before seen: min
    hold("s#1", "b", 1, 70, 80, 90);
    PermitHistoryReport r = PermitHistoryChecker.check(events, 1);
    assertThat(r.ok()).as(r.summary()).isTrue();
  }

  @Test
  void exitsFreePermitsAndEachExcursionIsReportedOnce() {
    hold("s#0", "a", 1, 0, 1, 10);
    hold("s#0", "b", 2, 10, 11, 20); // after a's exit
    hold("s#1", "c", 1, 0, 2, 40);
    assertThat(PermitHistoryChecker.check(events, 2).ok()).isTrue();

    hold("s#2", "d", 1, 0, 3, 40); // a, c, d: over; a exits; b, c, d: over again
    hold("s#3", "e", 1, 0, 4, 5); // a, c, d, e: still the first excursion
    PermitHistoryReport r = PermitHistoryChecker.check(events, 2);
    assertThat(r.violations()).isEqualTo(2);
    assertThat(r.maxHeld()).isEqualTo(4);
  }

  @Test
  void twoHoldersOfOneSlotFailThePerSlotCheck() {
    hold("s#0", "a", 1, 0, 1, 50);
    hold("s#0", "b", 2, 0, 2, 50);
    PermitHistoryReport r = PermitHistoryChecker.check(events, 5);
    assertThat(r.violations()).isZero();
    assertThat(r.ok()).isFalse();
    assertThat(r.slots().violationCount(HistoryReport.Kind.OVERLAP)).isEqualTo(1);
  }

  @Test
  void aSlotTokenGoingBackwardsAndMalformedEventsFailThePerSlotCheck() {
    hold("s#0", "a", 5, 0, 1, 10);
    hold("s#0", "b", 3, 20, 21, 30);
    events.add(new LockEvent(LockEvent.Type.EXIT, "s#1", "ghost", 1, 5, 5, 0));
    PermitHistoryReport r = PermitHistoryChecker.check(events, 2);
    assertThat(r.ok()).isFalse();
    assertThat(r.slots().violationCount(HistoryReport.Kind.TOKEN_ORDER)).isEqualTo(1);
    assertThat(r.slots().violationCount(HistoryReport.Kind.MALFORMED)).isEqualTo(1);
  }

  @Test
  void rejectsANonPositiveCount() {
    assertThatThrownBy(() -> PermitHistoryChecker.check(events, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
