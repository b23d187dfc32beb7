package io.hostloom.testkit.wopi;

import static io.hostloom.testkit.wopi.WopiHistory.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.testkit.wopi.WopiHistory.Op;
import io.hostloom.testkit.wopi.WopiHistory.Request;
import io.hostloom.testkit.wopi.WopiLinearizabilityChecker.Result;
import io.hostloom.testkit.wopi.WopiLinearizabilityChecker.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The checker's self-test: known non-linearizable histories (among them the one of issue 12) fail,
 * linearizable ones pass, including large generated ones within a bounded search.
 */
class WopiLinearizabilityCheckerTest {
  private static final String F = "file";

  private final WopiHistory h = new WopiHistory();

  private void op(int client, Request r, long in, long out, int status, String lock) {
    h.add(client, F, r, in, out, status, lock);
  }

  private Result check() {
    return WopiLinearizabilityChecker.check(h.ops());
  }

  private void expectNotLinearizable() {
    Result r = check();
    assertThat(r.verdict()).as(r.explanation()).isEqualTo(Verdict.NOT_LINEARIZABLE);
    assertThat(r.explanation()).contains("none of these can come next");
  }

  private void expectLinearizable() {
    Result r = check();
    assertThat(r.verdict()).as(r.explanation()).isEqualTo(Verdict.LINEARIZABLE);
  }

  // ------------------------------------------------------------ not linearizable

  @Test
  void theRequestersOwnIdReportedOnAMismatchFails() {
    // issue 12: UNLOCK(X-WOPI-Lock: lin-C) -> 409, X-WOPI-Lock: lin-C while lin-C was the holder
    op(1, Request.lock("lin-C"), 0, 10, 200, null);
    op(2, Request.unlock("lin-C"), 20, 30, 409, "lin-C");
    expectNotLinearizable();
  }

  @Test
  void aMismatchReportingTheLockReadAfterARelockFails() {
    // the old two-call UNLOCK: refused while lin-B held, then read lin-C after a concurrent relock
    op(1, Request.lock("lin-B"), 0, 1, 200, null);
    op(2, Request.unlock("lin-C"), 2, 10, 409, "lin-C");
    op(3, Request.unlockAndRelock("lin-C", "lin-B"), 3, 4, 200, null);
    expectNotLinearizable();
  }

  @Test
  void aLockReportedBeforeItWasTakenFails() {
    op(1, Request.lock("A"), 0, 1, 200, null);
    op(2, Request.lock("B"), 2, 10, 409, "C");
    op(1, Request.unlock("A"), 3, 4, 200, null);
    op(3, Request.lock("C"), 11, 12, 200, null);
    expectNotLinearizable();
  }

  @Test
  void twoWinnersFail() {
    op(1, Request.lock("A"), 0, 5, 200, null);
    op(2, Request.lock("B"), 0, 5, 200, null);
    expectNotLinearizable();
  }

  @Test
  void aStaleGetLockFails() {
    op(1, Request.lock("A"), 0, 1, 200, null);
    op(1, Request.unlock("A"), 2, 3, 200, null);
    op(2, Request.getLock(), 4, 5, 200, "A");
    expectNotLinearizable();
  }

  @Test
  void anEmptyLockOnAConflictWhileLockedFails() {
    op(1, Request.lock("A"), 0, 1, 200, null);
    op(2, Request.refreshLock("B"), 2, 3, 409, "");
    expectNotLinearizable();
  }

  @Test
  void aRequestWithoutAnswerCannotActBeforeItsInvoke() {
    op(1, Request.lock("A"), 0, 1, 200, null);
    op(2, Request.getLock(), 2, 3, 200, "");
    op(3, Request.unlock("A"), 4, 0, UNKNOWN, null);
    expectNotLinearizable();
  }

  @Test
  void aLongGeneratedHistoryWithOneWrongReportFails() {
    List<Op> ops = generate(new Random(7), 6, 80, 0);
    Op victim =
        ops.stream().filter(o -> o.status() == 409).findFirst().orElseThrow(AssertionError::new);
    List<Op> broken = new ArrayList<>();
    for (Op o : ops) {
      broken.add(
          o == victim
              ? new Op(
                  o.id(),
                  o.client(),
                  o.fileId(),
                  o.request(),
                  o.invokedAt(),
                  o.completedAt(),
                  409,
                  "never-a-lock")
              : o);
    }
    Result r = WopiLinearizabilityChecker.check(broken);
    assertThat(r.verdict()).as(r.explanation()).isEqualTo(Verdict.NOT_LINEARIZABLE);
  }

  // ------------------------------------------------------------ linearizable

  @Test
  void aLostRaceReportingTheWinnerPasses() {
    op(1, Request.lock("A"), 0, 5, 200, null);
    op(2, Request.lock("B"), 1, 6, 409, "A");
    op(3, Request.unlock("B"), 2, 7, 409, "");
    op(4, Request.getLock(), 8, 9, 200, "A");
    expectLinearizable();
  }

  @Test
  void theIssuesAnswerIsFineWhenTheLockChangedDuringTheRequest() {
    // 409 lin-C is right when lin-C was relocked away and back while the UNLOCK was in flight
    op(1, Request.lock("lin-C"), 0, 1, 200, null);
    op(2, Request.unlock("lin-C"), 2, 10, 409, "lin-D");
    op(3, Request.unlockAndRelock("lin-D", "lin-C"), 3, 4, 200, null);
    op(3, Request.unlockAndRelock("lin-C", "lin-D"), 5, 6, 200, null);
    expectLinearizable();
  }

  @Test
  void aRequestWithoutAnswerMayActLateOrNever() {
    op(1, Request.lock("A"), 0, 1, 200, null);
    op(2, Request.unlock("A"), 2, 0, UNKNOWN, null);
    op(3, Request.getLock(), 3, 4, 200, "A"); // not yet
    op(3, Request.getLock(), 5, 6, 200, ""); // now
    op(4, Request.lock("B"), 0, 0, UNKNOWN, null); // never (or refused)
    op(3, Request.lock("C"), 7, 8, 200, null);
    expectLinearizable();
  }

  @Test
  void filesAreIndependent() {
    h.add(1, "f1", Request.lock("A"), 0, 1, 200, null);
    h.add(2, "f2", Request.lock("B"), 0, 1, 200, null);
    h.add(3, "f2", Request.getLock(), 2, 3, 200, "B");
    expectLinearizable();
  }

  @Test
  void longGeneratedHistoriesPassWithinTheSearchBound() {
    for (int seed = 0; seed < 5; seed++) {
      List<Op> ops = generate(new Random(seed), 6, 80, 3);
      Result r = WopiLinearizabilityChecker.check(ops, 2_000_000);
      assertThat(r.verdict())
          .as("seed %d: %s", seed, r.explanation())
          .isEqualTo(Verdict.LINEARIZABLE);
      assertThat(r.ops()).isEqualTo(480);
    }
  }

  /**
   * A linearizable history: {@code clients} clients each send {@code perClient} requests on one
   * file; each request takes effect on the model at a random instant inside its own interval (so
   * the intervals of different clients overlap), and {@code unknown} of them lose their answer.
   */
  static List<Op> generate(Random random, int clients, int perClient, int unknown) {
    String[] ids = {"lin-A", "lin-B", "lin-C", "lin-D"};
    record Planned(int client, Request r, long in, long at, long out) {}
    List<Planned> planned = new ArrayList<>();
    long[] clientFree = new long[clients];
    for (int n = 0; n < clients * perClient; n++) {
      int c = n % clients;
      long in = clientFree[c] + random.nextInt(5);
      long at = in + 1 + random.nextInt(20);
      long out = at + 1 + random.nextInt(20);
      clientFree[c] = out + 1;
      String id = ids[random.nextInt(ids.length)];
      Request r =
          switch (random.nextInt(5)) {
            case 0 -> Request.lock(id);
            case 1 -> Request.getLock();
            case 2 -> Request.refreshLock(id);
            case 3 -> Request.unlock(id);
            default -> Request.unlockAndRelock(id, ids[random.nextInt(ids.length)]);
          };
      planned.add(new Planned(c, r, in, at, out));
    }
    planned.sort((a, b) -> Long.compare(a.at, b.at));
    WopiHistory history = new WopiHistory();
    String state = null;
    int lost = 0;
    for (Planned p : planned) {
      boolean ok = WopiLockModel.succeeds(state, p.r);
      String current = state == null ? "" : state;
      String reported = !ok || p.r.kind() == WopiHistory.Kind.GET_LOCK ? current : null;
      if (lost < unknown && random.nextInt(50) == 0) {
        lost++;
        history.add(p.client, "file", p.r, p.in, 0, UNKNOWN, null);
      } else {
        history.add(p.client, "file", p.r, p.in, p.out, ok ? 200 : 409, reported);
      }
      state = WopiLockModel.next(state, p.r);
    }
    return history.ops();
  }
}
