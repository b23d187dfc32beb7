package io.hostloom.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReadWriteLeases.Views;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.rwlock.ReadWriteViewsSuite;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The backend-neutral view contract ({@link ReadWriteViewsSuite}) on a real ZooKeeper server, plus
 * the view znode's place apart from the lock and the semaphore of the same key.
 */
class ZooKeeperReadWriteViewsTest extends ReadWriteViewsSuite {
  private static final Duration LONG = Duration.ofSeconds(60);

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
    assertThat(get(v.read().acquire(key, "r", "d", LONG)).granted()).isTrue();
    ZooKeeperTestServer server = ZooKeeperTestServer.shared();
    assertThat(server.dataVersion("/hostloom/views/rw/" + name)).as("the view znode").isZero();
    assertThat(server.dataVersion("/hostloom/locks/" + name)).as("no lock znode").isEqualTo(-2);
    assertThat(server.dataVersion("/hostloom/views/permits/" + name)).isEqualTo(-2);
    assertThat(get(backend.read(key))).as("the lock of the same key").isEmpty();
    assertThat(get(backend.permitView(2).orElseThrow().read(key))).as("its semaphore").isEmpty();
    assertThat(get(backend.acquire(key, "l", "", LONG)).granted())
        .as("the lock of the same key is free")
        .isTrue();
    assertThat(get(v.write().acquire(key, "w", "", LONG)).holder().orElseThrow().owner())
        .as("the lock is not the writer")
        .isEqualTo("r");
  }
}
