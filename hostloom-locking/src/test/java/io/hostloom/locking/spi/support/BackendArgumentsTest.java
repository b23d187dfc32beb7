package io.hostloom.locking.spi.support;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackendArgumentsTest {
  private static final Duration LEASE = Duration.ofSeconds(1);
  private final BackendArguments spi =
      BackendArguments.withLimits(
          SpiLimits.MAX_KEY_LENGTH, SpiLimits.MAX_OWNER_LENGTH, SpiLimits.MAX_DATA_LENGTH);

  @Test
  void acceptsTheSpiLimitsExactly() {
    String key = "k".repeat(SpiLimits.MAX_KEY_LENGTH);
    String owner = "o".repeat(SpiLimits.MAX_OWNER_LENGTH);
    String data = "d".repeat(SpiLimits.MAX_DATA_LENGTH);
    assertThatCode(() -> spi.acquire(key, owner, data, Duration.ofNanos(1)))
        .doesNotThrowAnyException();
    assertThatCode(() -> spi.replace(key, owner, owner, data, LEASE)).doesNotThrowAnyException();
    assertThatCode(() -> spi.acquire(key, owner, "", LEASE)).doesNotThrowAnyException();
  }

  @Test
  void rejectsOneBeyondWithTheValueInTheMessage() {
    assertThatThrownBy(() -> spi.read("k".repeat(SpiLimits.MAX_KEY_LENGTH + 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("key must be at most 8192 characters but was 8193");
    assertThatThrownBy(() -> spi.release("k", "o".repeat(2049)))
        .hasMessage("owner must be at most 2048 characters but was 2049");
    assertThatThrownBy(() -> spi.replace("k", "o", "n", "d".repeat(2049), LEASE))
        .hasMessage("newData must be at most 2048 characters but was 2049");
  }

  @Test
  void unboundedAcceptsAnyLength() {
    assertThatCode(
            () ->
                BackendArguments.unbounded()
                    .acquire("k".repeat(100_000), "o".repeat(100_000), "d".repeat(100_000), LEASE))
        .doesNotThrowAnyException();
  }

  @Test
  void nullsNameTheArgument() {
    BackendArguments a = BackendArguments.unbounded();
    assertThatThrownBy(() -> a.acquire(null, "o", "", LEASE))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("key");
    assertThatThrownBy(() -> a.acquire("k", null, "", LEASE)).hasMessage("owner");
    assertThatThrownBy(() -> a.acquire("k", "o", null, LEASE)).hasMessage("data");
    assertThatThrownBy(() -> a.acquire("k", "o", "", null)).hasMessage("lease");
    assertThatThrownBy(() -> a.replace("k", null, "n", "", LEASE)).hasMessage("expectedOwner");
    assertThatThrownBy(() -> a.replace("k", "o", null, "", LEASE)).hasMessage("newOwner");
    assertThatThrownBy(() -> a.awaitRelease("k", null)).hasMessage("maxWait");
  }

  @Test
  void emptyAndNonPositiveAreRejected() {
    BackendArguments a = BackendArguments.unbounded();
    assertThatThrownBy(() -> a.read("")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> a.release("k", "")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> a.extend("k", "o", Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> a.extend("k", "o", Duration.ofNanos(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> a.awaitRelease("k", Duration.ofNanos(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatCode(() -> a.awaitRelease("k", Duration.ZERO)).doesNotThrowAnyException();
  }

  @Test
  void limitsBelowTheSpiAreRefused() {
    assertThatThrownBy(() -> BackendArguments.withLimits(8191, 2048, 2048))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxKeyLength");
    assertThatThrownBy(() -> BackendArguments.withLimits(8192, 2048, 2047))
        .hasMessageContaining("maxDataLength");
  }
}
