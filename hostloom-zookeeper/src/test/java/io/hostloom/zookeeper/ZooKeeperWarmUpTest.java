package io.hostloom.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.capability.WarmUpSuite;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link ZooKeeperLockBackend#warmUp()} against the shared embedded server: the testkit's {@link
 * WarmUpSuite}, plus what it prepares (the session and the layout znodes), so that the first
 * acquire after it sends what any later first acquire of a key sends.
 */
class ZooKeeperWarmUpTest extends WarmUpSuite {
  private static final Duration BOUND = Duration.ofSeconds(30);
  private static final Duration LEASE = Duration.ofSeconds(30);

  @Override
  protected InetSocketAddress serverAddress() {
    return new InetSocketAddress("127.0.0.1", ZooKeeperTestServer.shared().port());
  }

  @Override
  protected LockBackend newBackend(InetSocketAddress at) {
    return backend(at.getHostString() + ":" + at.getPort(), ZooKeeperLockBackend.DEFAULT_ROOT);
  }

  private static ZooKeeperLockBackend backend(String connectString, String root) {
    return ZooKeeperLockBackend.builder()
        .connectString(connectString)
        .rootPath(root)
        .sessionTimeout(Duration.ofSeconds(4))
        .commandTimeout(Duration.ofSeconds(2))
        .build();
  }

  @Test
  void theWarmUpCreatesTheLayoutSoTheFirstAcquireSendsNoMoreThanALaterOne() throws Exception {
    String root = "/warm-" + UUID.randomUUID().toString().substring(0, 8) + "/hl";
    try (ZooKeeperLockBackend b = backend(ZooKeeperTestServer.shared().connectString(), root)) {
      TestTiming.get(b.warmUp(), BOUND);
      for (String p : new String[] {root, root + "/locks", root + "/clock"}) {
        assertThat(b.handle().exists(p, false)).as(p).isNotNull();
      }
      long first = requestsOfAFirstAcquire(b);
      long later = requestsOfAFirstAcquire(b);
      assertThat(first).as("requests of the first acquire after the warm-up").isEqualTo(later);
    }
  }

  /** Requests sent by the acquire of a key never locked, and its release. */
  private static long requestsOfAFirstAcquire(ZooKeeperLockBackend b) {
    String key = "warm-up:" + UUID.randomUUID();
    long before = b.session().requests();
    assertThat(TestTiming.get(b.acquire(key, "o", "", LEASE), BOUND).granted()).isTrue();
    long sent = b.session().requests() - before;
    assertThat(TestTiming.get(b.release(key, "o"), BOUND).released()).isTrue();
    return sent;
  }
}
