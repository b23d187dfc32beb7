package io.hostloom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.testkit.TcpFaultProxy;
import io.hostloom.testkit.TestTiming;
import io.hostloom.wopi.WopiLockProvider;
import io.lettuce.core.RedisClient;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Lettuce's auto-reconnect re-sends the commands that were in flight when a connection broke. Here
 * the connection is cut (through a {@link TcpFaultProxy}) after the command reached the server and
 * took effect, but before its reply came back; Lettuce reconnects and sends it again. The replay
 * must answer as the first run did: a release that succeeded is not a loss, a WOPI unlock or relock
 * whose effect is in place is a success.
 */
class ReplayedCommandTest {
  private static final Duration LONG = Duration.ofSeconds(60);
  private static final Duration WAIT = Duration.ofSeconds(20);

  private final RedisServerProcess redis = RedisServerProcess.shared();
  private TcpFaultProxy proxy;
  private RedisClient client;
  private RedisLockBackend backend;

  @BeforeEach
  void start() {
    proxy = TcpFaultProxy.start("127.0.0.1", redis.port());
    // a user's client with Lettuce's defaults: auto-reconnect, commands queued while disconnected
    client = RedisClient.create();
    backend =
        RedisLockBackend.builder()
            .client(client)
            .uri("redis://" + proxy.host() + ":" + proxy.port())
            .commandTimeout(WAIT)
            .build();
    // load every script on the server first: a NOSCRIPT answer held in the proxy would stall
    String warm = key("warm-up");
    TestTiming.get(backend.acquire(warm, "o", "", LONG), WAIT);
    TestTiming.get(backend.replace(warm, "o", "p", "", LONG), WAIT);
    TestTiming.get(backend.release(warm, "p"), WAIT);
  }

  @AfterEach
  void stop() {
    backend.close();
    client.shutdown();
    proxy.close();
  }

  /** Sends {@code call}, lets it apply on the server, then cuts the connection before the reply. */
  private <T> T cutAfterApplied(Supplier<CompletableFuture<T>> call, BooleanSupplier applied) {
    proxy.holdReplies();
    CompletableFuture<T> f = call.get();
    TestTiming.await("applied on the server", applied, WAIT);
    proxy.closeConnections(); // the reply is lost; Lettuce reconnects and re-sends the command
    proxy.releaseReplies();
    return TestTiming.get(f, WAIT);
  }

  private static String key(String label) {
    return "replay:lock:" + label + "-" + UUID.randomUUID();
  }

  @Test
  void aReplayedReleaseThatHadSucceededStillReportsReleased() {
    String key = key("release");
    assertThat(TestTiming.get(backend.acquire(key, "owner", "", LONG), WAIT).granted()).isTrue();

    ReleaseOutcome released =
        cutAfterApplied(
            () -> backend.release(key, "owner"),
            () -> redis.command("EXISTS", "hl:{" + key + "}").equals("0"));

    assertThat(released.released())
        .as("the release took effect; its replay is not a loss")
        .isTrue();
    assertThat(proxy.acceptedConnections()).as("reconnected").isGreaterThan(1);
  }

  @Test
  void aReplayedReleaseStillReportsReleasedWhenOthersReleasedTheKeyInBetween() {
    String key = key("release-between");
    assertThat(TestTiming.get(backend.acquire(key, "owner", "", LONG), WAIT).granted()).isTrue();
    // a client that is not behind the proxy: its calls go through while the first reply is held
    RedisLockBackend direct =
        RedisLockBackend.builder().uri("redis://127.0.0.1:" + redis.port()).build();
    try {
      ReleaseOutcome released =
          cutAfterApplied(
              () -> backend.release(key, "owner"),
              () -> {
                if (!redis.command("EXISTS", "hl:{" + key + "}").equals("0")) {
                  return false;
                }
                // another owner takes and releases the key before the replay arrives
                TestTiming.get(direct.acquire(key, "other", "", LONG), WAIT);
                TestTiming.get(direct.release(key, "other"), WAIT);
                return true;
              });
      assertThat(released.released())
          .as("the replay answers as its own first run, not as the key is now")
          .isTrue();
    } finally {
      direct.close();
    }
  }

  @Test
  void aReplayedReplaceThatHadSucceededStillReportsReplaced() {
    String key = key("replace");
    assertThat(TestTiming.get(backend.acquire(key, "old", "old", LONG), WAIT).granted()).isTrue();

    ReplaceOutcome o =
        cutAfterApplied(
            () -> backend.replace(key, "old", "new", "new", LONG),
            () -> "new".equals(redis.command("HGET", "hl:{" + key + "}", "o")));

    assertThat(o.replaced()).isTrue();
  }

  @Test
  void replayedWopiUnlockAndRelockSucceed() {
    WopiLockProvider wopi = WopiLockProvider.create(backend);
    String file = "doc-" + UUID.randomUUID();
    String stored = "hl:{" + wopi.keyOf(file) + "}";
    assertThat(wopi.add(file, "A").success()).isTrue();

    assertThat(
            cutAfterApplied(
                    () -> CompletableFuture.supplyAsync(() -> wopi.unlockAndRelock(file, "B", "A")),
                    () -> "B".equals(redis.command("HGET", stored, "d")))
                .success())
        .as("relock in place")
        .isTrue();
    assertThat(
            cutAfterApplied(
                    () -> CompletableFuture.supplyAsync(() -> wopi.remove(file, "B")),
                    () -> redis.command("EXISTS", stored).equals("0"))
                .success())
        .as("unlock in place")
        .isTrue();
  }
}
