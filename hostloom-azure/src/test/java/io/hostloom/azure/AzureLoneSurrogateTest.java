package io.hostloom.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keys, owners and data with lone surrogates against a real Azurite: keys that plain UTF-8 would
 * collapse to one blob are independent locks, and owners and data round-trip exactly.
 */
class AzureLoneSurrogateTest {
  private static final Duration CALL = Duration.ofSeconds(10);
  private static final Duration LEASE = Duration.ofSeconds(60);

  private static AzureBlobLockBackend backend;

  @BeforeAll
  static void start() {
    String container = Azurite.shared().newContainer("surrogates").getBlobContainerName();
    backend = Azurite.shared().backend(container).build();
  }

  private static <T> T get(CompletableFuture<T> f) {
    return TestTiming.get(f, CALL);
  }

  @Test
  void keysDifferingOnlyInALoneSurrogateAreIndependentLocks() {
    String base = "doc-" + UUID.randomUUID() + "-";
    List<String> keys = List.of(base + "\uD800", base + "\uDBFF", base + "\uDC00", base + "?");

    for (int i = 0; i < keys.size(); i++) {
      assertThat(get(backend.acquire(keys.get(i), "owner-" + i, "data-" + i, LEASE)).granted())
          .as("acquire of key %d", i)
          .isTrue();
    }
    for (int i = 0; i < keys.size(); i++) {
      LeaseRecord r = get(backend.read(keys.get(i))).orElseThrow();
      assertThat(r.owner()).isEqualTo("owner-" + i);
      assertThat(r.data()).isEqualTo("data-" + i);
    }

    assertThat(get(backend.release(keys.get(0), "owner-0")).released()).isTrue();
    assertThat(get(backend.read(keys.get(0)))).isEmpty();
    for (int i = 1; i < keys.size(); i++) {
      assertThat(get(backend.read(keys.get(i)))).as("key %d after releasing key 0", i).isPresent();
      assertThat(get(backend.release(keys.get(i), "owner-" + i)).released()).isTrue();
    }
  }

  @Test
  void ownersAndDataWithLoneSurrogatesRoundTripAndStayDistinct() {
    String key = "surrogate-owner:" + UUID.randomUUID();
    String owner = "owner-\uD800";
    String data = "data-\uDC00\uD800";

    assertThat(get(backend.acquire(key, owner, data, LEASE)).granted()).isTrue();
    LeaseRecord r = get(backend.read(key)).orElseThrow();
    assertThat(r.owner()).isEqualTo(owner);
    assertThat(r.data()).isEqualTo(data);

    // owners that plain UTF-8 would turn into the same "owner-?" are not the holder
    assertThat(get(backend.acquire(key, "owner-\uDC00", "x", LEASE)).granted()).isFalse();
    assertThat(get(backend.extend(key, "owner-?", LEASE)).extended()).isFalse();
    assertThat(get(backend.release(key, "owner-\uDBFF")).released()).isFalse();

    assertThat(get(backend.extend(key, owner, LEASE)).extended()).isTrue();
    assertThat(get(backend.release(key, owner)).released()).isTrue();
  }
}
