package io.hostloom.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LockHistoryTest {
  @TempDir Path dir;

  @Test
  void ledgerLinesRoundTripExoticKeysAndHolders() {
    LockEvent e =
        new LockEvent(
            LockEvent.Type.ENTER, "a\tkey with\nnewline:ü🔒%20", "holder 1\t", 42, -7, 3, 1_000);
    assertThat(LockEvent.parse(e.toLine())).isEqualTo(e);
    assertThat(e.toLine()).doesNotContain("\n").startsWith("ENTER\t");
    assertThatThrownBy(() -> LockEvent.parse("ENTER\tk"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LockEvent.parse("NOPE\tk\th\t1\t2\t3\t4"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void mergedLedgersOfSeveralWritersAreChecked() {
    Path p1 = dir.resolve("p1.ledger");
    Path p2 = dir.resolve("p2.ledger");
    try (LockHistory h1 = LockHistory.appendingTo(p1);
        LockHistory h2 = LockHistory.appendingTo(p2)) {
      long sent = LockHistory.now();
      LockHistory.Hold a = h1.enter("k", "p1-a", 1, sent, Duration.ofSeconds(30));
      a.extended(LockHistory.now(), Duration.ofSeconds(30));
      a.exit();
      LockHistory.Hold b = h2.enter("k", "p2-b", 2, LockHistory.now(), Duration.ofSeconds(30));
      b.exit();
      assertThat(h1.events()).hasSize(3);
    }
    List<LockEvent> merged = LockHistory.readLedger(p1, p2);
    assertThat(merged).hasSize(5);
    HistoryReport r = HistoryChecker.check(merged);
    assertThat(r.ok()).isTrue();
    assertThat(r.holds()).isEqualTo(2);
  }

  @Test
  void aTornLastLineIsIgnored() throws IOException {
    Path p = dir.resolve("torn.ledger");
    try (LockHistory h = LockHistory.appendingTo(p)) {
      h.enter("k", "a", 1, LockHistory.now(), Duration.ofSeconds(1)).exit();
    }
    Files.writeString(p, "ENTER\tk\tb\t2\t1", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    assertThat(LockHistory.readLedger(p)).hasSize(2);
  }

  @Test
  void aMalformedCompleteLineFails() throws IOException {
    Path p = dir.resolve("bad.ledger");
    Files.writeString(p, "garbage\n", StandardCharsets.UTF_8);
    assertThatThrownBy(() -> LockHistory.readLedger(p))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void manyThreadsShareOneLedger() throws Exception {
    Path p = dir.resolve("shared.ledger");
    ReentrantLock lock = new ReentrantLock();
    int threads = 8;
    int rounds = 200;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try (LockHistory history = LockHistory.appendingTo(p)) {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        futures.add(
            pool.submit(
                () -> {
                  for (int r = 0; r < rounds; r++) {
                    long sent = LockHistory.now();
                    lock.lock();
                    try {
                      long token = (long) thread * rounds + r + 1L; // not ordered: checked below
                      history
                          .enter("k", "t" + thread + "-" + r, token, sent, Duration.ofSeconds(30))
                          .exit();
                    } finally {
                      lock.unlock();
                    }
                  }
                }));
      }
      for (Future<?> f : futures) {
        f.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    List<LockEvent> events = LockHistory.readLedger(p);
    assertThat(events).hasSize(threads * rounds * 2);
    HistoryReport r = HistoryChecker.check(events);
    assertThat(r.holds()).isEqualTo((long) threads * rounds);
    assertThat(r.violations())
        .extracting(HistoryReport.Violation::kind)
        .doesNotContain(HistoryReport.Kind.OVERLAP, HistoryReport.Kind.MALFORMED);
  }

  @Test
  void holdsWithoutExclusionAreCaught() throws Exception {
    LockHistory history = new LockHistory();
    CountDownLatch bothIn = new CountDownLatch(2);
    Thread[] threads = new Thread[2];
    for (int t = 0; t < 2; t++) {
      int thread = t;
      threads[t] =
          new Thread(
              () -> {
                LockHistory.Hold h =
                    history.enter(
                        "k", "t" + thread, thread + 1, LockHistory.now(), Duration.ofSeconds(30));
                bothIn.countDown();
                try {
                  bothIn.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                h.exit();
              });
      threads[t].start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertThat(history.check().violations())
        .extracting(HistoryReport.Violation::kind)
        .contains(HistoryReport.Kind.OVERLAP);
  }
}
