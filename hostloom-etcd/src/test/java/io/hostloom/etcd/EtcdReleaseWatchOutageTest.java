package io.hostloom.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.Watch;
import io.hostloom.testkit.TestTiming;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The release watch across an etcd outage, on a member this test stops and starts. While etcd is
 * down, jetcd fails a new watch stream at once, inside {@code watch()}, and it resumes by itself
 * every watcher that is not closed: a watcher the release watch lost track of kept being resumed
 * next to the new ones, and its failures, reported under jetcd's watch lock while the backend's
 * timer thread held the release watch's lock inside {@code watch()}, deadlocked that timer (every
 * call's deadline and every wait's {@code maxWait} with it: EtcdReliabilityTest's outage hung).
 */
class EtcdReleaseWatchOutageTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final int REOPENS_WHILE_DOWN = 6;

  /** Every watcher the backend opened, and whether it closed it. */
  private final List<AtomicBoolean> watchers = new CopyOnWriteArrayList<>();

  /** {@code real}, with its watch client recording each watcher and its close. */
  private Client recording(Client real) {
    Watch recordingWatch = JetcdProxies.recording(real.getWatchClient(), watchers, () -> {});
    return JetcdProxies.proxy(
        Client.class,
        (p, m, args) ->
            m.getName().equals("getWatchClient")
                ? recordingWatch
                : JetcdProxies.call(real, m, args));
  }

  private long openWatchers() {
    return watchers.stream().filter(closed -> !closed.get()).count();
  }

  @Test
  void anOutageLeavesOneWatchAndTheBackendsTimerAlive() {
    try (EtcdServerProcess etcd = EtcdServerProcess.startNew();
        // configured as the backend configures the client it builds: fail fast while disconnected
        Client real =
            Client.builder()
                .endpoints(etcd.endpoint())
                .connectTimeout(Duration.ofSeconds(1))
                .waitForReady(false)
                .retryMaxAttempts(0)
                .build();
        EtcdLockBackend b =
            EtcdLockBackend.builder()
                .client(recording(real))
                .commandTimeout(Duration.ofSeconds(1))
                .build();
        EtcdLockBackend other = EtcdLockBackend.builder().client(real).build()) {
      TestTiming.await("the release watch is confirmed", b::releaseSignalUp, WAIT);

      etcd.stop();
      int before = watchers.size();
      TestTiming.await(
          "the release watch re-opened " + REOPENS_WHILE_DOWN + " times while etcd is down",
          () -> {
            // a wait still ends: at its maxWait on the timer (a deadlocked timer never ends it)
            // or woken by a watch failure
            TestTiming.get(
                b.awaitRelease("down-" + UUID.randomUUID(), Duration.ofMillis(100)), WAIT);
            return watchers.size() - before >= REOPENS_WHILE_DOWN;
          },
          WAIT);
      etcd.start();
      TestTiming.await("the release watch is confirmed again", b::releaseSignalUp, WAIT);

      assertThat(openWatchers()).as("watchers left open of %s opened", watchers.size()).isOne();
      assertThat(ManagementFactory.getThreadMXBean().findDeadlockedThreads())
          .as("deadlocked threads")
          .isNull();
      String key = "after-outage-" + UUID.randomUUID();
      assertThat(TestTiming.get(other.acquire(key, "a", "", WAIT), WAIT).granted()).isTrue();
      CompletableFuture<Boolean> woken = b.awaitRelease(key, WAIT);
      assertThat(TestTiming.get(other.release(key, "a"), WAIT).released()).isTrue();
      assertThat(TestTiming.get(woken, WAIT)).as("a release after the outage wakes").isTrue();
    }
  }
}
