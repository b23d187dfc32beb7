package io.hostloom.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.spi.support.SpiLimits;
import io.lettuce.core.cluster.SlotHash;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedisKeyLayoutTest {
  private final RedisKeyLayout layout = RedisKeyLayout.withPrefix("hl:");

  @Test
  void plainShortKeysStayReadable() {
    assertThat(layout.leaseKey("app:lock:invoice-7")).isEqualTo("hl:{app:lock:invoice-7}");
    assertThat(layout.fenceKey("app:lock:invoice-7")).isEqualTo("hl:{app:lock:invoice-7}:fence");
    assertThat(layout.releaseChannel("app:lock:invoice-7"))
        .isEqualTo("hl:{app:lock:invoice-7}:released");
  }

  @Test
  void theReleasePatternCoversEveryReleaseChannelOfThePrefixAndEscapesGlobCharacters() {
    assertThat(layout.releasePattern()).isEqualTo("hl:{*}:released");
    assertThat(RedisKeyLayout.withPrefix("a*b?[c]\\:").releasePattern())
        .isEqualTo("a\\*b\\?\\[c\\]\\\\:{*}:released");
    assertThat(RedisKeyLayout.withPrefix("").releasePattern()).isEqualTo("{*}:released");
  }

  @Test
  void otherKeysAreHashedWithAMarkerThatNoReadableKeyHas() {
    String hashed = RedisKeyLayout.id("with space");
    assertThat(hashed).startsWith("#").hasSize(65).matches("#[0-9a-f]{64}");
    // a readable-looking key that starts with '#' is hashed too, so forms never collide
    assertThat(RedisKeyLayout.id(hashed)).isNotEqualTo(hashed).startsWith("#");
    assertThat(RedisKeyLayout.id("x".repeat(RedisKeyLayout.MAX_READABLE_LENGTH)))
        .doesNotStartWith("#");
    assertThat(RedisKeyLayout.id("x".repeat(RedisKeyLayout.MAX_READABLE_LENGTH + 1)))
        .startsWith("#");
    for (String k : List.of("a{b", "a}b", "caf\u00e9", "tab\t", "\u0000")) {
      assertThat(RedisKeyLayout.id(k)).as(k).startsWith("#");
    }
  }

  @Test
  void hashingIsLosslessForLoneSurrogates() {
    assertThat(RedisKeyLayout.id("\ud800")).isNotEqualTo(RedisKeyLayout.id("\udbff"));
    assertThat(RedisKeyLayout.id("\ud800")).isNotEqualTo(RedisKeyLayout.id("?"));
  }

  @Test
  void aKeysNamesShareOneClusterSlotAndKeysSpreadOverSlots() {
    for (String k :
        List.of("app:lock:a", "app:lock:b", "with space", "k".repeat(SpiLimits.MAX_KEY_LENGTH))) {
      int slot = SlotHash.getSlot(layout.leaseKey(k));
      assertThat(SlotHash.getSlot(layout.fenceKey(k))).as(k).isEqualTo(slot);
      assertThat(SlotHash.getSlot(layout.releaseChannel(k))).as(k).isEqualTo(slot);
    }
    assertThat(SlotHash.getSlot(layout.leaseKey("app:lock:a")))
        .isNotEqualTo(SlotHash.getSlot(layout.leaseKey("app:lock:b")));
  }

  @Test
  void prefixesAreValidated() {
    assertThat(RedisKeyLayout.withPrefix("").leaseKey("k")).isEqualTo("{k}");
    assertThatThrownBy(() -> RedisKeyLayout.withPrefix("a b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("key prefix must be printable ASCII without braces but was \"a b\"");
    assertThatThrownBy(() -> RedisKeyLayout.withPrefix("p".repeat(65)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("key prefix must be at most 64 chars but was 65");
  }
}
