package io.hostloom.locking;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lock's cache of prefixed keys: a repeated key reuses its key, no key ever gets another's. */
class BackendKeyCacheTest {
  private final KernelFixture fx = new KernelFixture();

  @Test
  void everyKeyReachesTheBackendAsItsOwnPrefixedKeyAndARepeatedOneReusesIt() {
    DistributedLock lock = fx.lock();
    List<String> keys =
        new ArrayList<>(List.of("a", "ab", "b", "ba", "Aa", "BB")); // "Aa", "BB": same hash
    for (int i = 0; i < 300; i++) {
      keys.add("key-" + i); // more keys than slots: every slot is overwritten
    }
    for (int round = 0; round < 2; round++) {
      for (String k : keys) {
        lock.tryAcquire(new String(k.toCharArray())).orElseThrow().close();
      }
    }
    List<RecordingBackend.Call> calls = fx.backend.calls("acquire");
    assertThat(calls).hasSize(2 * keys.size());
    for (int i = 0; i < calls.size(); i++) {
      assertThat(calls.get(i).key()).isEqualTo("test:lock:" + keys.get(i % keys.size()));
    }
    // the same key twice in a row: the second acquisition reuses the first one's key
    lock.tryAcquire("invoice-42").orElseThrow().close();
    lock.tryAcquire("invoice-42").orElseThrow().close();
    List<RecordingBackend.Call> last = fx.backend.calls("acquire");
    assertThat(last.get(last.size() - 1).key()).isSameAs(last.get(last.size() - 2).key());
  }
}
