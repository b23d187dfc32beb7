package io.hostloom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.testkit.TcpFaultProxy;
import io.hostloom.testkit.TestTiming;
import io.hostloom.wopi.WopiLockProvider;
import io.hostloom.wopi.WopiLockUnavailableException;
import io.lettuce.core.RedisClient;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Lettuce's auto-reconnect re-sends the commands that were in flight when a connection broke. Here
 * the connection is cut (through a {@link TcpFaultProxy}) after the command reached the server and
 * took effect, but before its reply came back; Lettuce reconnects and sends it again. The replay
 * must not report a definite refusal that its own first run caused: a re-sent release or replace
 * whose second run finds the key absent or someone else's answers {@code TIMEOUT} ("may have been
 * applied"), never "not the owner"; a WOPI unlock or relock then fails as unavailable (a 500 the
 * client retries), never as a 409 conflict. Nothing is written on the server per call for this.
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

  /**
   * Sends {@code call}, lets it apply on the server, then cuts the connection before the reply;
   * returns the call's failure (it must fail).
   */
  private <T> Throwable cutAfterApplied(
      Supplier<CompletableFuture<T>> call, BooleanSupplier applied) {
    proxy.holdReplies();
    CompletableFuture<T> f = call.get();
    TestTiming.await("applied on the server", applied, WAIT);
    proxy.closeConnections(); // the reply is lost; Lettuce reconnects and re-sends the command
    proxy.releaseReplies();
    TestTiming.await("answered", f::isDone, WAIT);
    assertThat(f).as("the re-sent call's answer").isCompletedExceptionally();
    Throwable t = f.handle((v, e) -> e).join();
    return t instanceof CompletionException c && c.getCause() != null ? c.getCause() : t;
  }

  private static String key(String label) {
    return "replay:lock:" + label + "-" + UUID.randomUUID();
  }

  @Test
  void aReplayedReleaseThatHadSucceededStillReportsReleased() {
    String key = key("release");
    assertThat(TestTiming.get(backend.acquire(key, "owner", "", LONG), WAIT).granted()).isTrue();

    Throwable failure =
        cutAfterApplied(
            () -> backend.release(key, "owner"),
            () -> redis.command("EXISTS", "hl:{" + key + "}").equals("0"));

    assertThat(kindOf(failure))
        .as("the release took effect; its replay is in doubt, not a loss")
        .isEqualTo(LockFailureKind.TIMEOUT);
    assertThat(proxy.acceptedConnections()).as("reconnected").isGreaterThan(1);
    assertThat(redis.command("KEYS", "hl:{" + key + "}:[^f]*"))
        .as("no per-call key on the server (only the fence counter is left)")
        .isEqualTo(redis.command("KEYS", "no-such-key-" + key));
  }

  @Test
  void aReplayedReleaseStillReportsReleasedWhenOthersReleasedTheKeyInBetween() {
    String key = key("release-between");
    assertThat(TestTiming.get(backend.acquire(key, "owner", "", LONG), WAIT).granted()).isTrue();
    // a client that is not behind the proxy: its calls go through while the first reply is held
    RedisLockBackend direct =
        RedisLockBackend.builder().uri("redis://127.0.0.1:" + redis.port()).build();
    try {
      Throwable failure =
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
      assertThat(kindOf(failure))
          .as("the replay is in doubt, not \"absent\" as the key is now")
          .isEqualTo(LockFailureKind.TIMEOUT);
    } finally {
      direct.close();
    }
  }

  @Test
  void aReplayedReplaceThatHadSucceededStillReportsReplaced() {
    String key = key("replace");
    assertThat(TestTiming.get(backend.acquire(key, "old", "old", LONG), WAIT).granted()).isTrue();

    Throwable failure =
        cutAfterApplied(
            () -> backend.replace(key, "old", "new", "new", LONG),
            () -> redis.command("GET", "hl:{" + key + "}").endsWith("|3|newnew"));

    assertThat(kindOf(failure)).isEqualTo(LockFailureKind.TIMEOUT);
    assertThat(TestTiming.get(backend.read(key), WAIT).orElseThrow().owner())
        .as("the first run's replace is in place")
        .isEqualTo("new");
  }

  @Test
  void leanSettingsAReplayedSetThatHadGrantedIsTheCallersOwnGrantAndAReplayedReleaseIsInDoubt() {
    RedisLockBackend lean =
        RedisLockBackend.builder()
            .client(client)
            .uri("redis://" + proxy.host() + ":" + proxy.port())
            .commandTimeout(WAIT)
            .fencingTokens(false)
            .releaseNotifications(false)
            .build();
    try {
      TestTiming.get(lean.warmUp(), WAIT); // every script loaded: no NOSCRIPT held in the proxy
      String key = key("lean-acquire");
      // the plain SET NX PX grants, its reply is lost, the re-sent SET meets the caller's lease:
      // the acquire script refreshes it, and the call answers granted (not "held by itself")
      proxy.holdReplies();
      CompletableFuture<io.hostloom.locking.spi.AcquireOutcome> f =
          lean.acquire(key, "owner", "d", LONG);
      TestTiming.await(
          "applied on the server",
          () -> redis.command("EXISTS", "hl:{" + key + "}").equals("1"),
          WAIT);
      proxy.closeConnections();
      proxy.releaseReplies();
      var granted = TestTiming.get(f, WAIT);
      assertThat(granted.granted()).as("the replayed grant").isTrue();
      assertThat(granted.fencingToken()).isEqualTo(1);
      assertThat(proxy.acceptedConnections()).as("reconnected").isGreaterThan(1);
      assertThat(TestTiming.get(lean.read(key), WAIT).orElseThrow().data()).isEqualTo("d");

      Throwable failure =
          cutAfterApplied(
              () -> lean.release(key, "owner"),
              () -> redis.command("EXISTS", "hl:{" + key + "}").equals("0"));
      assertThat(kindOf(failure))
          .as("the lean release took effect; its replay is in doubt, not a loss")
          .isEqualTo(LockFailureKind.TIMEOUT);
    } finally {
      lean.close();
    }
  }

  @Test
  void aCallNotInFlightAtTheCutIsJudgedAsUsual() {
    String key = key("fresh");
    assertThat(TestTiming.get(backend.acquire(key, "owner", "", LONG), WAIT).granted()).isTrue();
    proxy.closeConnections(); // nothing in flight: the next calls go out once, after reconnecting
    ReleaseOutcome wrong = TestTiming.get(retryWhileReconnecting(key, "not-owner"), WAIT);
    assertThat(wrong.released()).isFalse();
    assertThat(wrong.holder()).isPresent();
    assertThat(TestTiming.get(backend.release(key, "owner"), WAIT).released()).isTrue();
    assertThat(TestTiming.get(backend.release(key, "owner"), WAIT).released()).isFalse();
  }

  // right after a cut, a call may meet the dead connection once (nothing in flight, so not re-sent)
  private CompletableFuture<ReleaseOutcome> retryWhileReconnecting(String key, String owner) {
    return backend
        .release(key, owner)
        .exceptionallyCompose(
            t -> {
              TestTiming.pass(Duration.ofMillis(100));
              return backend.release(key, owner);
            });
  }

  private static LockFailureKind kindOf(Throwable t) {
    assertThat(t).isInstanceOf(LockBackendException.class);
    return ((LockBackendException) t).kind();
  }

  @Test
  void replayedWopiUnlockAndRelockFailAsUnavailableNotAsConflicts() {
    WopiLockProvider wopi = WopiLockProvider.create(backend);
    String file = "doc-" + UUID.randomUUID();
    String stored = "hl:{" + wopi.keyOf(file) + "}";
    assertThat(wopi.add(file, "A").success()).isTrue();

    assertThat(
            cutAfterApplied(
                () -> CompletableFuture.supplyAsync(() -> wopi.unlockAndRelock(file, "B", "A")),
                () -> redis.command("GET", stored).endsWith("B")))
        .as("relock in place, its replay in doubt")
        .isInstanceOf(WopiLockUnavailableException.class);
    assertThat(
            cutAfterApplied(
                () -> CompletableFuture.supplyAsync(() -> wopi.remove(file, "B")),
                () -> redis.command("EXISTS", stored).equals("0")))
        .as("unlock in place, its replay in doubt")
        .isInstanceOf(WopiLockUnavailableException.class);
  }
}
