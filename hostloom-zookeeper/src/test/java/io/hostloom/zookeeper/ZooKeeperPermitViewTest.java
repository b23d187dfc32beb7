package io.hostloom.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.semaphore.PermitViewSuite;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The backend-neutral view contract ({@link PermitViewSuite}) on a real ZooKeeper server, plus
 * grants of several sessions racing into the last permit.
 */
class ZooKeeperPermitViewTest extends PermitViewSuite {
  @Override
  protected LockBackend newBackend() {
    return ZooKeeperReadWriteViewsTest.open();
  }

  @Override
  protected void awaitSignalReady(LockBackend instance) {
    ZooKeeperReadWriteViewsTest.awaitWatching(instance);
  }

  /** Each round exactly one racer gets the last free permit. */
  @Test
  void racingGrantsIntoTheLastPermitGetOneOfThem() throws Exception {
    List<ZooKeeperLockBackend> instances = ViewRaces.instances(4);
    try {
      List<LockBackend> views = instances.stream().map(b -> b.permitView(3).orElseThrow()).toList();
      for (int round = 0; round < 10; round++) {
        String key = namespace() + ":semaphore:race-" + UUID.randomUUID();
        for (int i = 0; i < 2; i++) {
          assertThat(
                  TestTiming.get(
                          views.get(0).acquire(key, "pre" + i, "3", ViewRaces.LONG),
                          Duration.ofSeconds(30))
                      .granted())
              .isTrue();
        }
        List<Boolean> granted = ViewRaces.race(i -> views.get(i % 4), key, "3");
        assertThat(granted.stream().filter(g -> g).count())
            .as("round %d: grants of the last permit", round)
            .isEqualTo(1);
      }
    } finally {
      ViewRaces.close(instances);
    }
  }
}
