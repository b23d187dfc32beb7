package io.hostloom.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReadWriteLeases.Views;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.rwlock.ReadWriteViewsSuite;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The backend-neutral view contract ({@link ReadWriteViewsSuite}) on a real ZooKeeper server, plus
 * the layout and readers and writers racing over several sessions.
 */
class ZooKeeperReadWriteViewsTest extends ReadWriteViewsSuite {
  static ZooKeeperLockBackend open() {
    return ZooKeeperLockBackend.builder()
        .connectString(ZooKeeperTestServer.shared().connectString())
        .build();
  }

  static void awaitWatching(LockBackend instance) {
    TestTiming.await(
        "the persistent watches are set",
        ((ZooKeeperLockBackend) instance)::releaseSignalUp,
        Duration.ofSeconds(10));
  }

  @Override
  protected LockBackend newBackend() {
    return open();
  }

  @Override
  protected void awaitSignalReady(LockBackend instance) {
    awaitWatching(instance);
  }

  private static <T> T get(CompletableFuture<T> f) {
    return TestTiming.get(f, Duration.ofSeconds(30));
  }

  @Test
  void theViewZnodeIsApartFromTheLockAndTheSemaphoreOfTheKey() {
    String key = namespace() + ":rwlock:layout-" + UUID.randomUUID();
    String name = NodeNames.of(key);
    ZooKeeperLockBackend backend = (ZooKeeperLockBackend) backend();
    Views v = backend.readWriteViews(2).orElseThrow();
    assertThat(get(v.read().acquire(key, "r", "d", ViewRaces.LONG)).granted()).isTrue();
    ZooKeeperTestServer server = ZooKeeperTestServer.shared();
    assertThat(server.dataVersion("/hostloom/views/rw/" + name)).as("the view znode").isZero();
    assertThat(server.dataVersion("/hostloom/locks/" + name)).as("no lock znode").isEqualTo(-2);
    assertThat(server.dataVersion("/hostloom/views/permits/" + name)).isEqualTo(-2);
    assertThat(get(backend.read(key))).as("the lock of the same key").isEmpty();
    assertThat(get(backend.permitView(2).orElseThrow().read(key))).as("its semaphore").isEmpty();
    assertThat(get(backend.acquire(key, "l", "", ViewRaces.LONG)).granted())
        .as("the lock of the same key is free")
        .isTrue();
    assertThat(get(v.write().acquire(key, "w", "", ViewRaces.LONG)).holder().orElseThrow().owner())
        .as("the lock is not the writer")
        .isEqualTo("r");
  }

  /** Each round: either one writer and no reader, or readers and no writer, granted. */
  @Test
  void racingReadersAndWritersOfSeveralSessionsKeepExclusion() throws Exception {
    List<ZooKeeperLockBackend> instances = ViewRaces.instances(4);
    try {
      List<Views> views = instances.stream().map(b -> b.readWriteViews(64).orElseThrow()).toList();
      for (int round = 0; round < 10; round++) {
        String key = namespace() + ":rwlock:race-" + UUID.randomUUID();
        List<Boolean> granted =
            ViewRaces.race(
                i -> i % 2 == 0 ? views.get(i % 4).write() : views.get(i % 4).read(), key, "");
        int writers = 0;
        int readers = 0;
        for (int i = 0; i < granted.size(); i++) {
          if (granted.get(i)) {
            if (i % 2 == 0) {
              writers++;
            } else {
              readers++;
            }
          }
        }
        assertThat((writers == 1 && readers == 0) || (writers == 0 && readers > 0))
            .as("round %d: %d writers and %d readers granted", round, writers, readers)
            .isTrue();
      }
    } finally {
      ViewRaces.close(instances);
    }
  }
}
