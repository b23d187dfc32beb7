package io.hostloom.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.capability.ReleaseSignalSuite;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The release-signal capability on a real server, plus what is particular to watches. */
class ZooKeeperReleaseSignalTest extends ReleaseSignalSuite {
  @Override
  protected LockBackend newBackend() {
    return ZooKeeperLockBackend.builder()
        .connectString(ZooKeeperTestServer.shared().connectString())
        .build();
  }

  @Override
  protected void awaitSignalReady(LockBackend instance) {
    TestTiming.await(
        "the persistent watch is set",
        ((ZooKeeperLockBackend) instance)::releaseSignalUp,
        Duration.ofSeconds(10));
  }

  /** Expires the instance's session; it opens a new one (and sets its watch) by itself. */
  @Override
  protected boolean dropSignalConnection(LockBackend instance) {
    ZooKeeperTestServer.shared().expireSession(((ZooKeeperLockBackend) instance).handle());
    return true;
  }

  @Override
  protected OptionalInt pendingWaits(LockBackend instance) {
    return OptionalInt.of(((ZooKeeperLockBackend) instance).releaseWaiters());
  }

  @Test
  void extendsAndGrantsOfTheKeyWakeNobody() {
    LockBackend holder = instance();
    LockBackend waiter = instance();
    String k = "hl-signal:" + UUID.randomUUID() + ":extended";
    Duration lease = Duration.ofMinutes(1);
    get(holder.acquire(k, "a", "", lease));
    var wait = signal(waiter).awaitRelease(k, shortWait());
    assertThat(get(holder.extend(k, "a", lease)).extended()).isTrue();
    assertThat(get(holder.acquire(k, "a", "", lease)).granted()).isTrue();
    assertThat(get(wait)).as("woken by an extend or a re-acquire").isFalse();
  }

  @Test
  void signalsOffAnswerFalseAtOnceAndSetNoWatch() {
    try (ZooKeeperLockBackend off =
        ZooKeeperLockBackend.builder()
            .connectString(ZooKeeperTestServer.shared().connectString())
            .releaseSignal(false)
            .build()) {
      assertThat(off.awaitRelease("k", Duration.ofMinutes(1))).isCompletedWithValue(false);
      assertThat(off.releaseSignalUp()).isFalse();
    }
  }
}
