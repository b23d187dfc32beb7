package io.hostloom.testkit.rwlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.testkit.HistoryReport;
import io.hostloom.testkit.HistoryReport.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checker's self-test: good histories pass, each kind of bad history is caught. */
class ReadWriteHistoryCheckerTest {
  private static final long NEVER = Long.MAX_VALUE;

  private static ReadWriteHold read(String h, long token, long sent, long at, long exit) {
    return new ReadWriteHold("k", false, h, token, sent, at, sent + 1_000, exit);
  }

  private static ReadWriteHold write(String h, long token, long sent, long at, long exit) {
    return new ReadWriteHold("k", true, h, token, sent, at, sent + 1_000, exit);
  }

  private static HistoryReport check(ReadWriteHold... holds) {
    return ReadWriteHistoryChecker.check(List.of(holds));
  }

  @Test
  void overlappingReadsThenAWriteAfterThemPass() {
    HistoryReport r =
        check(read("r1", 1, 0, 10, 50), read("r2", 1, 5, 20, 60), write("w", 2, 30, 70, 90));
    assertThat(r.ok()).as(r.summary()).isTrue();
    assertThat(r.holds()).isEqualTo(3);
  }

  @Test
  void aWriteOverlappingAReadIsCaught() {
    HistoryReport r = check(read("r", 1, 0, 10, 50), write("w", 2, 5, 40, 60));
    assertThat(r.violationCount(Kind.OVERLAP)).isEqualTo(1);
    assertThat(r.violations().get(0).description()).contains("write w").contains("read r");
  }

  @Test
  void twoOverlappingWritesAreCaughtOnce() {
    HistoryReport r = check(write("a", 1, 0, 10, 50), write("b", 2, 0, 40, 60));
    assertThat(r.violationCount(Kind.OVERLAP)).isEqualTo(1);
  }

  @Test
  void aHoldEndsAtItsLeaseEvenWithoutAnExit() {
    // the dead reader's lease (sent 0 + 1000) ended before the write was granted at 1500
    assertThat(check(read("dead", 1, 0, 10, NEVER), write("w", 2, 100, 1_500, 1_600)).ok())
        .isTrue();
    // granted at 900: inside the dead reader's lease
    assertThat(
            check(read("dead", 1, 0, 10, NEVER), write("w", 2, 100, 900, 1_600))
                .violationCount(Kind.OVERLAP))
        .isEqualTo(1);
  }

  @Test
  void aLaterWriteWithATokenNotAboveAnEarlierReadIsCaught() {
    HistoryReport r = check(read("r", 5, 0, 10, 20), write("w", 5, 30, 40, 50));
    assertThat(r.violationCount(Kind.TOKEN_ORDER)).isEqualTo(1);
    assertThat(r.violations().get(0).description()).contains("not larger");
  }

  @Test
  void aLaterWriteWithASmallerTokenThanAnEarlierWriteIsCaught() {
    assertThat(
            check(write("a", 7, 0, 10, 20), write("b", 3, 30, 40, 50))
                .violationCount(Kind.TOKEN_ORDER))
        .isEqualTo(1);
  }

  @Test
  void writesSharingATokenAreCaughtEvenWhenConcurrentlyRequested() {
    // both sent before either was seen: no order, but a write token must be unique
    assertThat(
            check(write("a", 4, 0, 10, 20), write("b", 4, 5, 30, 40))
                .violationCount(Kind.TOKEN_ORDER))
        .isEqualTo(1);
  }

  @Test
  void aReadRequestedAfterAWriteWithASmallerTokenIsCaught() {
    HistoryReport r = check(write("w", 9, 0, 10, 20), read("r", 8, 30, 40, 50));
    assertThat(r.violationCount(Kind.TOKEN_ORDER)).isEqualTo(1);
    assertThat(r.violations().get(0).description()).contains("smaller");
  }

  @Test
  void readsRequestedBeforeTheWriteWasSeenAreNotOrdered() {
    // r was sent at 5, before w's grant was seen at 10: no order between them can be inferred
    assertThat(check(write("w", 9, 0, 10, 20), read("r", 8, 5, 40, 50)).ok()).isTrue();
  }

  @Test
  void namesAreCheckedApart() {
    ReadWriteHold other = new ReadWriteHold("other", true, "x", 1, 0, 10, 1_000, 50);
    assertThat(check(read("r", 1, 0, 10, 50), other).ok()).isTrue();
  }
}
