package io.hostloom.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.testkit.HistoryReport.Kind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HistoryCheckerTest {
  private final List<LockEvent> events = new ArrayList<>();

  /** A hold: acquire sent at {@code sent}, grant seen at {@code seen}. */
  private void enter(String holder, long token, long sent, long seen, long lease) {
    events.add(new LockEvent(LockEvent.Type.ENTER, "k", holder, token, sent, seen, lease));
  }

  private void extend(String holder, long token, long sent, long seen, long lease) {
    events.add(new LockEvent(LockEvent.Type.EXTEND, "k", holder, token, sent, seen, lease));
  }

  private void exit(String holder, long token, long at) {
    events.add(new LockEvent(LockEvent.Type.EXIT, "k", holder, token, at, at, 0));
  }

  private HistoryReport check() {
    return HistoryChecker.check(events);
  }

  @Test
  void sequentialHoldsAreFine() {
    enter("a", 1, 0, 5, 100);
    exit("a", 1, 20);
    enter("b", 2, 15, 25, 100);
    exit("b", 2, 40);

    HistoryReport r = check();

    assertThat(r.ok()).isTrue();
    assertThat(r.holds()).isEqualTo(2);
    assertThat(r.keys()).isEqualTo(1);
    assertThat(r.events()).isEqualTo(4);
    r.assertNoViolations();
  }

  @Test
  void aGrantBeforeTheHolderLeftIsAnOverlap() {
    enter("a", 1, 0, 5, 100);
    exit("a", 1, 60);
    enter("b", 2, 40, 50, 100);

    HistoryReport r = check();

    assertThat(r.violationCount()).isEqualTo(1);
    assertThat(r.violations().get(0).kind()).isEqualTo(Kind.OVERLAP);
    assertThat(r.violations().get(0).description()).contains("b(token 2)", "a(token 1)");
    assertThatThrownBy(r::assertNoViolations)
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("1 violations")
        .hasMessageContaining("OVERLAP on key 'k'");
  }

  @Test
  void aHolderWithoutExitHoldsUntilItsLeaseCountedFromTheSend() {
    enter("a", 1, 0, 10, 100); // crashed holder: no exit, lease certainly valid until 100
    enter("b", 2, 90, 99, 100);
    assertThat(check().violationCount()).as("b granted at 99 < 100").isEqualTo(1);

    events.clear();
    enter("a", 1, 0, 10, 100);
    enter("b", 2, 90, 100, 100);
    assertThat(check().ok()).as("b granted at 100, when a's lease may have ended").isTrue();
  }

  @Test
  void extensionsProlongTheHold() {
    enter("a", 1, 0, 10, 100);
    extend("a", 1, 80, 85, 100); // valid until 180
    enter("b", 2, 140, 150, 100);
    assertThat(check().violations())
        .extracting(HistoryReport.Violation::kind)
        .containsExactly(Kind.OVERLAP);
  }

  @Test
  void aShorterLaterExtensionEndsTheHoldEarlier() {
    enter("a", 1, 0, 10, 1000); // valid until 1000
    extend("a", 1, 100, 110, 50); // a minimum hold kept on close: the lease now ends at 150
    enter("b", 2, 200, 210, 100);
    assertThat(check().ok()).as("b granted after a's shortened lease").isTrue();

    events.clear();
    enter("a", 1, 0, 10, 1000);
    extend("a", 1, 100, 110, 150); // ends at 250 at the earliest
    enter("b", 2, 200, 210, 100);
    assertThat(check().violations())
        .extracting(HistoryReport.Violation::kind)
        .containsExactly(Kind.OVERLAP);
  }

  @Test
  void extensionsStillInFlightTogetherCountTheSmallerBound() {
    enter("a", 1, 0, 10, 1000);
    extend("a", 1, 100, 400, 100); // sent at 100, reply seen at 400
    extend("a", 1, 300, 310, 500); // sent while the first was out: either was applied last
    enter("b", 2, 250, 260, 100); // after 100 + 100, so nothing certain overlaps it
    assertThat(check().ok()).isTrue();
  }

  @Test
  void aReplyArrivingAfterTheLeaseEndedHoldsNothing() {
    enter("a", 1, 0, 150, 100); // the grant was seen after its lease had certainly begun to run out
    enter("b", 2, 120, 130, 100);
    exit("b", 2, 200);
    assertThat(check().ok()).isTrue();
  }

  @Test
  void aLaterGrantWithASmallerTokenIsReported() {
    enter("a", 5, 0, 10, 100);
    exit("a", 5, 20);
    enter("b", 3, 30, 40, 100); // requested after a was seen granted, smaller token
    exit("b", 3, 50);

    HistoryReport r = check();

    assertThat(r.violations())
        .extracting(HistoryReport.Violation::kind)
        .containsExactly(Kind.TOKEN_ORDER);
  }

  @Test
  void concurrentRequestsMayBeGrantedInEitherOrder() {
    enter("a", 5, 0, 30, 100); // requested first, granted second (waited for b)
    exit("a", 5, 40);
    enter("b", 3, 5, 10, 100);
    exit("b", 3, 20);
    assertThat(check().ok()).isTrue();
  }

  @Test
  void aGrantSeenAfterAnotherWithASmallerTokenIsAGrantOrderInversion() {
    // the PostgreSQL finding: a drew its token, b was granted, used and released the key, then a
    // was granted with the older token; the holds never overlap and a was requested first
    enter("a", 921, 0, 30, 100);
    exit("a", 921, 40);
    enter("b", 925, 15, 20, 100);
    exit("b", 925, 25);

    HistoryReport r = check();

    assertThat(r.violations())
        .extracting(HistoryReport.Violation::kind)
        .containsExactly(Kind.GRANT_ORDER);
    assertThat(r.violationCount(Kind.GRANT_ORDER)).isEqualTo(1);
    assertThat(r.violationCount(Kind.OVERLAP)).isZero();
    assertThat(r.violations().get(0).description())
        .contains("a(token 921)", "b(token 925)", "10 ns after", "requested 15 ns before");
    assertThat(r.summary()).endsWith("1 violations (1 GRANT_ORDER)");
    assertThatThrownBy(r::assertNoViolations).hasMessageContaining("GRANT_ORDER on key 'k'");
  }

  @Test
  void overlappingRequestWindowsAreFineWhenTokensFollowTheGrantOrder() {
    // three requests in flight together, answered in another order than sent
    enter("a", 12, 0, 40, 100);
    exit("a", 12, 45);
    enter("b", 10, 5, 10, 100);
    exit("b", 10, 15);
    enter("c", 11, 2, 25, 100);
    exit("c", 11, 30);
    assertThat(check().ok()).isTrue();
  }

  @Test
  void grantsSeenAtTheSameInstantAreNotOrdered() {
    enter("a", 5, 0, 10, 100);
    exit("a", 5, 10); // left at once: an empty hold
    enter("b", 3, 2, 10, 100);
    exit("b", 3, 12);
    assertThat(check().ok()).isTrue();
  }

  @Test
  void aGrantHeardAfterItsLeaseOrReleasedBeforeItWasSeenIsNotRelied() {
    enter("a", 5, 0, 10, 100);
    exit("a", 5, 20);
    enter("late", 3, 5, 105, 100); // heard at sent + lease: the kernel rejects it
    assertThat(check().ok()).as("late reply").isTrue();

    events.clear();
    enter("a", 5, 0, 10, 100);
    exit("a", 5, 20);
    enter("early", 3, 5, 30, 100);
    exit("early", 3, 8); // its release was sent before the grant arrived
    assertThat(check().ok()).as("released early").isTrue();

    events.clear();
    enter("a", 5, 0, 10, 100);
    exit("a", 5, 20);
    enter("relied", 3, 5, 104, 100); // heard just within its lease
    exit("relied", 3, 110);
    assertThat(check().violations())
        .extracting(HistoryReport.Violation::kind)
        .containsExactly(Kind.GRANT_ORDER);
  }

  @Test
  void aGrantOrderInversionIsReportedOnceAndAgainstEveryEarlierGrant() {
    enter("a", 5, 0, 10, 100);
    exit("a", 5, 12);
    enter("b", 7, 1, 20, 100);
    exit("b", 7, 22);
    enter("c", 6, 2, 30, 100); // smaller than b's, though larger than a's
    exit("c", 6, 32);
    enter("d", 4, 40, 50, 100); // requested after b was seen: the send-order rule reports it
    exit("d", 4, 52);

    HistoryReport r = check();

    assertThat(r.violations())
        .extracting(HistoryReport.Violation::kind)
        .containsExactlyInAnyOrder(Kind.GRANT_ORDER, Kind.TOKEN_ORDER);
    assertThat(r.violations())
        .filteredOn(v -> v.kind() == Kind.GRANT_ORDER)
        .singleElement()
        .satisfies(
            v -> assertThat(v.description()).startsWith("c(token 6)").contains("b(token 7)"));
  }

  @Test
  void twoHoldsNeverShareAToken() {
    enter("a", 7, 0, 10, 100);
    exit("a", 7, 20);
    enter("b", 7, 5, 30, 100);
    exit("b", 7, 40);
    assertThat(check().violations())
        .extracting(HistoryReport.Violation::kind)
        .contains(Kind.TOKEN_ORDER);
  }

  @Test
  void keysAreIndependent() {
    events.add(new LockEvent(LockEvent.Type.ENTER, "k1", "a", 1, 0, 10, 100));
    events.add(new LockEvent(LockEvent.Type.ENTER, "k2", "b", 2, 0, 10, 100));
    assertThat(check().ok()).isTrue();
    assertThat(check().keys()).isEqualTo(2);
  }

  @Test
  void exitsAndExtensionsWithoutAnEnterAreMalformed() {
    exit("ghost", 1, 10);
    extend("ghost2", 2, 10, 11, 100);
    assertThat(check().violations())
        .extracting(HistoryReport.Violation::kind)
        .containsExactly(Kind.MALFORMED, Kind.MALFORMED);
  }

  @Test
  void eventsMayArriveInAnyOrder() {
    exit("a", 1, 20);
    enter("b", 2, 25, 30, 100);
    enter("a", 1, 0, 5, 100);
    assertThat(check().ok()).isTrue();
  }

  @Test
  void describesAtMostFiftyButCountsAll() {
    for (int i = 0; i < 60; i++) {
      enter("h" + i, i + 1, 0, 10 + i, 1000);
    }
    HistoryReport r = check();
    assertThat(r.violationCount()).isEqualTo(59);
    assertThat(r.violations()).hasSize(HistoryChecker.MAX_DESCRIBED);
  }

  @Test
  void eventsRejectImpossibleTimes() {
    assertThatThrownBy(() -> new LockEvent(LockEvent.Type.ENTER, "k", "a", 1, 10, 5, 100))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new LockEvent(LockEvent.Type.ENTER, "k", "a", 1, 0, 5, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("but was 0");
  }
}
