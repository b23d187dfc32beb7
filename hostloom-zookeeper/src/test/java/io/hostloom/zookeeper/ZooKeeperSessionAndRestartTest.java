package io.hostloom.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * What a session expiry and a server restart do to leases, tokens, errors and the release signal,
 * on a real server: leases are persistent znodes, so neither loses one.
 */
class ZooKeeperSessionAndRestartTest {
  private static final Duration LONG = Duration.ofMinutes(5);
  private static final Duration WAIT = Duration.ofSeconds(20);

  private static ZooKeeperLockBackend backend(String connectString) {
    return ZooKeeperLockBackend.builder()
        .connectString(connectString)
        .sessionTimeout(Duration.ofSeconds(4))
        .commandTimeout(Duration.ofSeconds(1))
        .build();
  }

  private static <T> T get(CompletableFuture<T> f) {
    return TestTiming.get(f, WAIT);
  }

  @Test
  void aSessionExpiryLosesNoLeaseAndTheWatchComesBackOnTheNewSession() {
    ZooKeeperTestServer server = ZooKeeperTestServer.shared();
    String key = "expiry-" + UUID.randomUUID();
    String other = "expiry-other-" + UUID.randomUUID();
    try (ZooKeeperLockBackend b = backend(server.connectString());
        ZooKeeperLockBackend peer = backend(server.connectString())) {
      TestTiming.await("watch set", b::releaseSignalUp, WAIT);
      long token = get(b.acquire(key, "a", "d", LONG)).fencingToken();
      CompletableFuture<Boolean> pending = b.awaitRelease(other, LONG);
      long oldSession = b.session().sessionId();

      server.expireSession(b.session().handle());

      TestTiming.await(
          "a new session with its watch",
          () -> b.session().sessionId() != oldSession && b.releaseSignalUp(),
          WAIT);
      assertThat(get(pending)).as("woken: releases may have been missed meanwhile").isTrue();
      LeaseRecord kept = get(peer.read(key)).orElseThrow();
      assertThat(kept.owner()).isEqualTo("a");
      assertThat(kept.fencingToken()).isEqualTo(token);
      assertThat(get(b.extend(key, "a", LONG)).extended()).isTrue();

      assertThat(get(peer.acquire(other, "p", "", LONG)).granted()).isTrue();
      CompletableFuture<Boolean> woken = b.awaitRelease(other, LONG);
      assertThat(get(peer.release(other, "p")).released()).isTrue();
      assertThat(get(woken)).as("a release heard on the new session").isTrue();
      assertThat(get(b.release(key, "a")).released()).isTrue();
    }
  }

  @Test
  void aServerRestartKeepsLeasesFailsCallsTypedWhileDownAndTokensKeepIncreasing() {
    String key = "restart-" + UUID.randomUUID();
    Set<LockFailureKind> seen = EnumSet.noneOf(LockFailureKind.class);
    try (ZooKeeperTestServer server = ZooKeeperTestServer.startNew();
        ZooKeeperLockBackend b = backend(server.connectString())) {
      long before = get(b.acquire(key, "a", "", LONG)).fencingToken();

      server.stop();
      TestTiming.await(
          "a call fails UNAVAILABLE",
          () -> {
            LockFailureKind kind = failureOf(b.acquire("k-" + UUID.randomUUID(), "x", "", LONG));
            seen.add(kind);
            return kind == LockFailureKind.UNAVAILABLE;
          },
          WAIT);
      for (int i = 0; i < 3; i++) {
        LockFailureKind kind = failureOf(b.read(key));
        seen.add(kind);
        assertThat(kind).isEqualTo(LockFailureKind.UNAVAILABLE); // nothing is sent while down
      }
      assertThat(seen).isSubsetOf(EnumSet.of(LockFailureKind.UNAVAILABLE, LockFailureKind.TIMEOUT));
      assertThat(get(b.checkHealth()).healthy()).isFalse();

      server.restart();
      Optional<LeaseRecord>[] after = readWhenUp(b, key);
      assertThat(after[0]).as("the lease survived the restart").isPresent();
      assertThat(after[0].get().owner()).isEqualTo("a");
      assertThat(after[0].get().fencingToken()).isEqualTo(before);
      assertThat(get(b.release(key, "a")).released()).isTrue();
      long next = get(b.acquire(key, "b", "", LONG)).fencingToken();
      assertThat(next).as("a zxid after the restart").isGreaterThan(before);
      assertThat(get(b.checkHealth()).healthy()).isTrue();
      TestTiming.await("watch set again", b::releaseSignalUp, WAIT);
      System.out.println(
          "[zookeeper restart] failure kinds while down: "
              + seen
              + "; token before "
              + Long.toHexString(before)
              + ", after 0x"
              + Long.toHexString(next));
    }
  }

  @SuppressWarnings("unchecked")
  private static Optional<LeaseRecord>[] readWhenUp(ZooKeeperLockBackend b, String key) {
    Optional<LeaseRecord>[] out = new Optional[1];
    TestTiming.await(
        "reads work again",
        () -> {
          try {
            out[0] = b.read(key).join();
            return true;
          } catch (CompletionException e) {
            return false;
          }
        },
        WAIT);
    return out;
  }

  private static LockFailureKind failureOf(CompletableFuture<?> call) {
    try {
      call.join();
      throw new AssertionError("answered while the server was down");
    } catch (CompletionException e) {
      assertThat(e.getCause()).isInstanceOf(LockBackendException.class);
      return ((LockBackendException) e.getCause()).kind();
    }
  }
}
