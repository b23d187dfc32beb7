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
    enter("a", 5, 0, 10, 100);
    exit("a", 5, 20);
    enter("b", 3, 5, 30, 100); // sent before a's grant was seen: b may have been granted first
    exit("b", 3, 50);
    assertThat(check().ok()).isTrue();
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
