package io.hostloom.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.GetOption;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.semaphore.DistributedSemaphore;
import io.hostloom.locking.semaphore.DistributedSemaphores;
import io.hostloom.locking.semaphore.Permits;
import io.hostloom.locking.spi.LosslessUtf8;
import io.hostloom.locking.spi.ReadWriteLeases;
import io.hostloom.testkit.TestTiming;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The native views' key layout: a view key's prefix is no other view key's (of either kind), the
 * release watch finds the view key of an entry key only, and a semaphore over the backend writes
 * only view keys (it runs on the native view, not on slot keys), and a waiting writer's retries
 * leave the guard as readers saw it.
 */
class EtcdViewKeysTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private final EtcdKeyLayout layout = EtcdKeyLayout.withPrefix("p/");

  @Test
  void noViewKeysPrefixIsAnothersNorMeetsTheLocksKeys() {
    List<String> keys = List.of("a", "a:", "a:b", "1:a", "ab", "", "\u0000", "a\u0000", "o/a");
    for (String k : keys) {
      for (String other : keys) {
        for (byte kind : new byte[] {EtcdKeyLayout.SEMAPHORE, EtcdKeyLayout.READ_WRITE}) {
          for (byte otherKind : new byte[] {EtcdKeyLayout.SEMAPHORE, EtcdKeyLayout.READ_WRITE}) {
            if (k.equals(other) && kind == otherKind) {
              continue;
            }
            ByteSequence entry =
                layout.view(otherKind, other).entry((byte) 'p', ByteSequence.from(bytes("x")));
            assertThat(entry.startsWith(layout.view(kind, k).all()))
                .as("an entry of %s is under the prefix of %s", other, k)
                .isFalse();
          }
        }
      }
      ByteSequence base = layout.view(EtcdKeyLayout.SEMAPHORE, k).all();
      assertThat(base.startsWith(layout.ownerKey(""))).isFalse();
      assertThat(base.startsWith(layout.dataPrefix())).isFalse();
    }
  }

  @Test
  void theWatchFindsTheViewKeyOfAnEntryKeyOnly() {
    String k = "ns:semaphore:s\u0000é";
    EtcdKeyLayout.ViewKeys v = layout.view(EtcdKeyLayout.READ_WRITE, k);
    ByteSequence owner = RecordCodec.owner("owner:1");
    for (byte role : new byte[] {'p', 'r', 'h', 'w'}) {
      assertThat(layout.viewKeyOf(v.entry(role, owner))).contains(k);
    }
    assertThat(layout.viewKeyOf(v.guard())).isEmpty();
    assertThat(layout.viewKeyOf(v.counter())).isEmpty();
    assertThat(layout.viewKeyOf(layout.dataKey(k))).isEmpty();
    assertThat(layout.lockKeyOf(v.entry((byte) 'r', owner))).isEmpty();
    ByteSequence entry = v.entry((byte) 'r', owner);
    assertThat(entry.startsWith(layout.dataPrefix())).isFalse();
    assertThat(compare(entry, layout.dataPrefix())).as("inside the watch range").isPositive();
    assertThat(compare(entry, layout.watchEnd())).isNegative();
    assertThat(compare(layout.ownerKey(k), layout.watchEnd()))
        .as("owner keys outside it")
        .isPositive();
  }

  @Test
  void aSemaphoreWritesOnlyItsViewKeys() {
    String prefix = "views-" + UUID.randomUUID() + "/";
    try (Client client = Client.builder().endpoints(EtcdServerProcess.shared().endpoint()).build();
        EtcdLockBackend backend =
            EtcdLockBackend.builder().client(client).keyPrefix(prefix).build();
        DistributedSemaphores semaphores =
            DistributedSemaphores.create(
                LockingOptions.builder()
                    .namespace("vk")
                    .defaultLease(Duration.ofSeconds(30))
                    .build(),
                backend)) {
      DistributedSemaphore s = semaphores.semaphore("s", 2);
      try (Permits p = s.tryAcquire().orElseThrow()) {
        assertThat(p.isHeld()).isTrue();
        List<String> written =
            TestTiming.get(
                    client
                        .getKVClient()
                        .get(
                            ByteSequence.from(prefix, StandardCharsets.UTF_8),
                            GetOption.builder().isPrefix(true).build()),
                    Duration.ofSeconds(10))
                .getKvs()
                .stream()
                .map(KeyValue::getKey)
                .map(b -> LosslessUtf8.decode(b.getBytes()).substring(prefix.length()))
                .toList();
        assertThat(written).isNotEmpty().allSatisfy(key -> assertThat(key).startsWith("e/s"));
        assertThat(written).anySatisfy(key -> assertThat(key).endsWith("g"));
      }
    }
  }

  @Test
  void onlyAWritersFirstWaitRewritesTheGuardSoItsRetriesDoNotFailReadersCommits() {
    String prefix = "views-" + UUID.randomUUID() + "/";
    Duration lease = Duration.ofSeconds(30);
    try (Client client = Client.builder().endpoints(EtcdServerProcess.shared().endpoint()).build();
        EtcdLockBackend backend =
            EtcdLockBackend.builder().client(client).keyPrefix(prefix).build()) {
      ReadWriteLeases.Views views = backend.readWriteViews(4).orElseThrow();
      ByteSequence guard =
          EtcdKeyLayout.withPrefix(prefix).view(EtcdKeyLayout.READ_WRITE, "k").guard();
      assertThat(TestTiming.get(views.read().acquire("k", "reader", "", lease), WAIT).granted())
          .isTrue();
      long read = modRevision(client, guard);
      assertThat(TestTiming.get(views.write().acquire("k", "writer", "", lease), WAIT).granted())
          .as("refused for the reader, now waiting")
          .isFalse();
      long waiting = modRevision(client, guard);
      assertThat(waiting).as("the first wait rewrites the guard").isGreaterThan(read);
      for (int retry = 0; retry < 3; retry++) {
        assertThat(TestTiming.get(views.write().acquire("k", "writer", "", lease), WAIT).granted())
            .isFalse();
      }
      assertThat(modRevision(client, guard)).as("retries leave it").isEqualTo(waiting);
      assertThat(TestTiming.get(views.read().acquire("k", "late", "", lease), WAIT).granted())
          .as("a new reader is still refused by the waiting writer")
          .isFalse();
      TestTiming.get(views.read().release("k", "reader"), WAIT);
      assertThat(TestTiming.get(views.write().acquire("k", "writer", "", lease), WAIT).granted())
          .isTrue();
    }
  }

  private static long modRevision(Client client, ByteSequence key) {
    return TestTiming.get(client.getKVClient().get(key), WAIT).getKvs().get(0).getModRevision();
  }

  private static byte[] bytes(String s) {
    return LosslessUtf8.encode(s);
  }

  private static int compare(ByteSequence a, ByteSequence b) {
    return Arrays.compareUnsigned(a.getBytes(), b.getBytes());
  }
}
