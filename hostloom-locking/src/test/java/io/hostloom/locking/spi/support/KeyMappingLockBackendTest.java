package io.hostloom.locking.spi.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.memory.InMemoryLockBackend;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class KeyMappingLockBackendTest {
  private static final Duration LEASE = Duration.ofSeconds(30);

  private final InMemoryLockBackend memory = new InMemoryLockBackend();
  private final KeyMappingLockBackend mapped =
      new KeyMappingLockBackend(memory, "ns:lock:", "ns:rwlock:");

  @Test
  void everyOperationGoesToTheMappedKey() {
    assertThat(mapped.acquire("ns:lock:a", "o1", "d", LEASE).join().granted()).isTrue();
    // the plain key stays free; the mapped one is held, with the data given
    assertThat(memory.read("ns:lock:a").join()).isEmpty();
    assertThat(memory.read("ns:rwlock:a").join().orElseThrow().data()).isEqualTo("d");
    assertThat(mapped.read("ns:lock:a").join()).isPresent();

    assertThat(mapped.extend("ns:lock:a", "o1", LEASE).join().extended()).isTrue();
    assertThat(mapped.replace("ns:lock:a", "o1", "o2", "e", LEASE).join().replaced()).isTrue();
    assertThat(memory.read("ns:rwlock:a").join().orElseThrow().owner()).isEqualTo("o2");
    assertThat(mapped.release("ns:lock:a", "o2").join().released()).isTrue();
    assertThat(memory.read("ns:rwlock:a").join()).isEmpty();
  }

  @Test
  void keysWithoutThePrefixPassUnchanged() {
    assertThat(mapped.acquire("other:a", "o1", "", LEASE).join().granted()).isTrue();
    assertThat(memory.read("other:a").join()).isPresent();
    assertThat(mapped.mapKey("other:a")).isEqualTo("other:a");
  }

  @Test
  void mapKeyAndTargetKeyAgree() {
    assertThat(mapped.mapKey("ns:lock:x/w")).isEqualTo("ns:rwlock:x/w");
    assertThat(mapped.targetKey("x/w")).isEqualTo(mapped.mapKey("ns:lock:x/w"));
    assertThat(mapped.suffixOf("ns:lock:x/w")).isEqualTo("x/w");
    assertThat(mapped.name()).isEqualTo(memory.name());
  }
}
