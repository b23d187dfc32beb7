package io.hostloom.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.maintenance.StatusResponse;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * etcd going away and coming back: a single member restarted (clean stop and SIGKILL) keeps its
 * grants and its revision, so fencing tokens keep increasing; a 3-member cluster with its leader
 * killed keeps every grant and keeps granting on the remaining quorum, and the same backend
 * instances carry on without being rebuilt.
 */
class EtcdRecoveryTest {
  private static final Duration LONG = Duration.ofSeconds(60);
  private static final Duration WAIT = Duration.ofSeconds(30);

  private static EtcdLockBackend backend(String endpoints) {
    return EtcdLockBackend.builder()
        .endpoints(endpoints.split(","))
        .commandTimeout(Duration.ofSeconds(2))
        .build();
  }

  private static <T> T get(CompletableFuture<T> f) {
    return TestTiming.get(f, WAIT);
  }

  /** Retries {@code op} until it answers (etcd or the client may still be coming back). */
  private static <T> T eventually(
      String what, java.util.function.Supplier<CompletableFuture<T>> op) {
    Object[] out = new Object[1];
    TestTiming.await(
        what,
        () -> {
          try {
            out[0] = op.get().join();
            return true;
          } catch (RuntimeException e) {
            return false;
          }
        },
        WAIT);
    @SuppressWarnings("unchecked")
    T t = (T) out[0];
    return t;
  }

  @Test
  void aRestartedMemberKeepsItsGrantsAndTokensKeepIncreasing() {
    try (EtcdServerProcess etcd = EtcdServerProcess.startNew();
        EtcdLockBackend b = backend(etcd.endpoint())) {
      String key = "restart-" + UUID.randomUUID();
      AcquireOutcome first = get(b.acquire(key, "a", "before", LONG));
      assertThat(first.granted()).isTrue();

      etcd.stop();
      Set<LockFailureKind> seen = EnumSet.noneOf(LockFailureKind.class);
      for (int i = 0; i < 3; i++) {
        assertThatThrownBy(() -> b.acquire("other-" + UUID.randomUUID(), "x", "", LONG).join())
            .satisfies(e -> seen.add(((LockBackendException) e.getCause()).kind()));
      }
      assertThat(seen).doesNotContain(LockFailureKind.OTHER);

      etcd.start();
      LeaseRecord kept =
          eventually("the same backend reads again", () -> b.read(key)).orElseThrow();
      assertThat(kept.owner()).isEqualTo("a");
      assertThat(kept.data()).isEqualTo("before");
      assertThat(kept.fencingToken()).isEqualTo(first.fencingToken());

      etcd.kill(); // SIGKILL: etcd acknowledged the grant only after its WAL was synced
      etcd.start();
      assertThat(eventually("read after SIGKILL", () -> b.read(key))).isPresent();
      assertThat(eventually("release after SIGKILL", () -> b.release(key, "a")).released())
          .isTrue();

      AcquireOutcome next = get(b.acquire(key, "b", "after", LONG));
      assertThat(next.granted()).isTrue();
      assertThat(next.fencingToken()).isGreaterThan(first.fencingToken());
      System.out.println(
          "[etcd restart] token before "
              + first.fencingToken()
              + ", after stop/start and kill -9/start "
              + next.fencingToken()
              + "; failure kinds while down: "
              + seen);
    }
  }

  @Test
  void aThreeMemberClusterKeepsGrantsAndGrantsAgainWithItsLeaderKilled() {
    List<EtcdServerProcess> members = EtcdServerProcess.startCluster(3);
    try (EtcdLockBackend a = backend(EtcdServerProcess.endpoints(members));
        EtcdLockBackend b = backend(EtcdServerProcess.endpoints(members))) {
      String key = "cluster-" + UUID.randomUUID();
      AcquireOutcome first = get(a.acquire(key, "a", "d", LONG));
      assertThat(first.granted()).isTrue();

      EtcdServerProcess leader = leaderOf(members);
      long killedAt = System.nanoTime();
      leader.kill();

      Optional<LeaseRecord> kept = eventually("a read on the remaining quorum", () -> b.read(key));
      long failoverMillis = (System.nanoTime() - killedAt) / 1_000_000;
      assertThat(kept).get().extracting(LeaseRecord::owner).isEqualTo("a");
      assertThat(kept.get().fencingToken()).isEqualTo(first.fencingToken());
      assertThat(get(b.acquire(key, "b", "d", LONG)).granted()).as("still held").isFalse();
      assertThat(eventually("extend", () -> a.extend(key, "a", LONG)).extended()).isTrue();
      assertThat(eventually("release", () -> a.release(key, "a")).released()).isTrue();
      long previous = first.fencingToken();
      for (int i = 0; i < 5; i++) {
        AcquireOutcome o = get(b.acquire(key, "b" + i, "d", LONG));
        assertThat(o.granted()).isTrue();
        assertThat(o.fencingToken()).isGreaterThan(previous);
        previous = o.fencingToken();
        assertThat(get(b.release(key, "b" + i)).released()).isTrue();
      }

      leader.start(); // rejoins from its data directory
      try (EtcdLockBackend onlyOld = backend(leader.endpoint())) {
        AcquireOutcome again =
            eventually("the old leader serves again", () -> onlyOld.acquire(key, "c", "d", LONG));
        assertThat(again.granted()).isTrue();
        assertThat(again.fencingToken()).isGreaterThan(previous);
      }
      System.out.println(
          "[etcd cluster] leader killed; first answer from the remaining quorum after "
              + failoverMillis
              + " ms (election timeout 500 ms); tokens kept increasing");
    } finally {
      members.forEach(EtcdServerProcess::close);
    }
  }

  private static EtcdServerProcess leaderOf(List<EtcdServerProcess> members) {
    for (EtcdServerProcess m : members) {
      try (Client c = Client.builder().endpoints(m.endpoint()).build()) {
        StatusResponse s = get(c.getMaintenanceClient().statusMember(m.endpoint()));
        if (s.getHeader().getMemberId() == s.getLeader()) {
          return m;
        }
      }
    }
    throw new AssertionError("no member is the leader");
  }
}
