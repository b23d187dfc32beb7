package io.hostloom.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.support.Claim;
import io.hostloom.locking.spi.support.VersionedRecord;
import io.hostloom.locking.spi.support.WriteResult;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A lock znode's data version is a signed 32-bit counter that the server increments with plain
 * {@code int} overflow (ZooKeeper 3.9 {@code PrepRequestProcessor.checkAndIncVersion}: {@code
 * currentVersion + 1}): after {@code Integer.MAX_VALUE} comes {@code Integer.MIN_VALUE}, and after
 * 2^32 - 1 writes the version is -1, which as an <em>expected</em> version means "any". A
 * conditional write on a version read as -1 is then no condition at all, and two writers that read
 * the same record both win.
 *
 * <p>2^31 real writes take hours even in process, so each test starts the znode near the wrap by
 * setting its version in the in-process server's tree ({@link ZooKeeperTestServer#setDataVersion});
 * every write after that is a real request that the server checks and counts as usual.
 */
class ZooKeeperVersionWrapTest {
  private static final Duration LONG = Duration.ofMinutes(5);
  private static final Duration WAIT = Duration.ofSeconds(20);

  private ZooKeeperLockBackend backend;

  @BeforeEach
  void connect() {
    backend =
        ZooKeeperLockBackend.builder()
            .connectString(ZooKeeperTestServer.shared().connectString())
            .releaseSignal(false)
            .build();
  }

  @AfterEach
  void close() {
    backend.close();
  }

  private static String path(String key) {
    return ZooKeeperLockBackend.DEFAULT_ROOT + "/locks/" + NodeNames.of(key);
  }

  private static <T> T get(CompletableFuture<T> f) {
    return TestTiming.get(f, WAIT);
  }

  @Test
  void writesAtTheLastVersionRecreateTheZnodeInsteadOfWrappingIt() {
    String key = "wrap-" + UUID.randomUUID();
    assertThat(get(backend.acquire(key, "a", "", LONG)).granted()).isTrue();
    ZooKeeperTestServer.shared().setDataVersion(path(key), Integer.MAX_VALUE - 2);

    List<Integer> versions = new ArrayList<>();
    long token = 0;
    for (int i = 0; i < 3; i++) {
      assertThat(get(backend.extend(key, "a", LONG)).extended()).isTrue();
      versions.add(ZooKeeperTestServer.shared().dataVersion(path(key)));
      assertThat(get(backend.release(key, "a")).released()).isTrue();
      versions.add(ZooKeeperTestServer.shared().dataVersion(path(key)));
      AcquireOutcome again = get(backend.acquire(key, "a", "", LONG));
      assertThat(again.granted()).isTrue();
      assertThat(again.fencingToken())
          .as("tokens still grow across a recreate")
          .isGreaterThan(token);
      token = again.fencingToken();
      versions.add(ZooKeeperTestServer.shared().dataVersion(path(key)));
    }
    assertThat(versions).as("data versions after each write").allMatch(v -> v >= 0);
    assertThat(get(backend.read(key)))
        .hasValueSatisfying(r -> assertThat(r.owner()).isEqualTo("a"));
  }

  @Test
  void twoWritersOfTheSameReadNeverBothWinAroundTheWrap() {
    // -2 before the release: the old code's release made it -1, then read by both writers;
    // -1, MAX_VALUE, MIN_VALUE after it: both writers read that version
    raceFrom(-2, true);
    raceFrom(-1, false);
    raceFrom(Integer.MAX_VALUE, false);
    raceFrom(Integer.MIN_VALUE, false);
  }

  private void raceFrom(int version, boolean beforeRelease) {
    String key = "race-" + version + "-" + UUID.randomUUID();
    assertThat(get(backend.acquire(key, "a", "", LONG)).granted()).isTrue();
    if (beforeRelease) {
      ZooKeeperTestServer.shared().setDataVersion(path(key), version);
    }
    assertThat(get(backend.release(key, "a")).released()).isTrue();
    if (!beforeRelease) {
      ZooKeeperTestServer.shared().setDataVersion(path(key), version);
    }

    ZooKeeperRecordStore store = backend.store();
    VersionedRecord<ZooKeeperRecordStore.Version> seenByX = get(store.read(key)).orElseThrow();
    VersionedRecord<ZooKeeperRecordStore.Version> seenByY = get(store.read(key)).orElseThrow();
    assertThat(seenByX.version()).isEqualTo(seenByY.version());
    WriteResult<ZooKeeperRecordStore.Version> x =
        get(store.compareAndSet(key, seenByX.version(), Claim.newGrant("x", "", LONG)));
    WriteResult<ZooKeeperRecordStore.Version> y =
        get(store.compareAndSet(key, seenByY.version(), Claim.newGrant("y", "", LONG)));
    assertThat(List.of(x.applied(), y.applied()))
        .as("grants won on one read of version " + seenByX.version().dataVersion())
        .containsExactly(true, false);
    assertThat(get(backend.read(key)))
        .hasValueSatisfying(r -> assertThat(r.owner()).isEqualTo("x"));
    assertThat(ZooKeeperTestServer.shared().dataVersion(path(key))).isNotNegative();

    // the key still works as a lock afterwards
    assertThat(get(backend.release(key, "x")).released()).isTrue();
    assertThat(get(backend.acquire(key, "z", "", LONG)).granted()).isTrue();
    assertThat(ZooKeeperTestServer.shared().dataVersion(path(key))).isNotNegative();
  }
}
