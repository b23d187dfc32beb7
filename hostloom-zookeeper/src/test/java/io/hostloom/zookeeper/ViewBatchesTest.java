package io.hostloom.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TcpFaultProxy;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The calls of one view znode that arrive while a batch of it runs are decided together in the next
 * batch: one read and one write for all of them, in arrival order, none lost to another.
 */
class ViewBatchesTest {
  private static final Duration LONG = Duration.ofSeconds(60);
  private static final Duration WAIT = Duration.ofSeconds(20);

  @Test
  void callsThatArriveWhileABatchRunsShareTheNextReadAndWrite() {
    try (TcpFaultProxy proxy =
            TcpFaultProxy.start("127.0.0.1", ZooKeeperTestServer.shared().port());
        ZooKeeperLockBackend backend =
            ZooKeeperLockBackend.builder()
                .connectString(proxy.host() + ":" + proxy.port())
                .build()) {
      LockBackend view = backend.permitView(8).orElseThrow();
      String key = "batch-" + UUID.randomUUID();
      assertThat(TestTiming.get(view.acquire(key, "warm", "8", LONG), WAIT).granted()).isTrue();
      List<String> trips = Collections.synchronizedList(new ArrayList<>());
      backend.onRoundTrip(trips::add);

      proxy.holdReplies();
      CompletableFuture<AcquireOutcome> first = view.acquire(key, "first", "8", LONG);
      TestTiming.await("the first batch's read is sent", () -> !trips.isEmpty(), WAIT);
      List<CompletableFuture<AcquireOutcome>> queued = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        queued.add(view.acquire(key, "queued-" + i, "8", LONG));
      }
      proxy.releaseReplies();

      long firstToken = TestTiming.get(first, WAIT).fencingToken();
      List<Long> tokens = new ArrayList<>();
      for (CompletableFuture<AcquireOutcome> q : queued) {
        AcquireOutcome o = TestTiming.get(q, WAIT);
        assertThat(o.granted()).isTrue();
        tokens.add(o.fencingToken());
      }
      assertThat(tokens).as("granted in arrival order").isSorted().doesNotHaveDuplicates();
      assertThat(tokens.get(0)).isGreaterThan(firstToken);
      assertThat(trips)
          .as("the first call's read and write, then one read and one write for the five")
          .hasSize(4);
    }
  }
}
