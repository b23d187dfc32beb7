package io.hostloom.wopi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WopiLockIdsTest {

  @Test
  void everyPrintableAsciiCharacterIsValid() {
    for (char c = 0x20; c <= 0x7E; c++) {
      assertThat(WopiLockIds.isValid(String.valueOf(c))).as("U+%04X", (int) c).isTrue();
    }
    StringBuilder all = new StringBuilder();
    IntStream.rangeClosed(0x20, 0x7E).forEach(c -> all.append((char) c));
    assertThat(WopiLockIds.requireValid(all.toString(), "lockId")).isEqualTo(all.toString());
  }

  @Test
  void lengthIsOneTo1024() {
    assertThat(WopiLockIds.isValid("a")).isTrue();
    assertThat(WopiLockIds.isValid("a".repeat(1024))).isTrue();
    assertThat(WopiLockIds.isValid("a".repeat(1025))).isFalse();
    assertThat(WopiLockIds.isValid("")).isFalse();
    assertThat(WopiLockIds.isValid(null)).isFalse();
  }

  @Test
  void everyCharacterOutsidePrintableAsciiIsInvalid() {
    for (char c = 0; c < 0x20; c++) {
      assertThat(WopiLockIds.isValid("a" + c)).as("U+%04X", (int) c).isFalse();
    }
    for (char c : new char[] {0x7F, 0x80, 0xA0, 0xE9, 0x2028, 0xD83D, 0xFEFF, 0xFFFF}) {
      assertThat(WopiLockIds.isValid("a" + c)).as("U+%04X", (int) c).isFalse();
    }
  }

  @Test
  void messagesNameTheRuleAndTheProblemButNeverTheId() {
    assertThatThrownBy(() -> WopiLockIds.requireValid(null, "lockId"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("lockId must be 1 to 1024 printable ASCII characters (0x20-0x7E) but was null");
    assertThatThrownBy(() -> WopiLockIds.requireValid("", "newLockId"))
        .hasMessage(
            "newLockId must be 1 to 1024 printable ASCII characters (0x20-0x7E) but was empty");
    assertThatThrownBy(() -> WopiLockIds.requireValid("secret".repeat(200), "lockId"))
        .hasMessageEndingWith("but had 1200 characters")
        .hasMessageNotContaining("secret");
    assertThatThrownBy(() -> WopiLockIds.requireValid("secret\u00e9", "expectedLockId"))
        .hasMessageEndingWith("but had U+00E9 at index 6")
        .hasMessageNotContaining("secret");
  }

  @ParameterizedTest
  @ValueSource(strings = {" ", "  leading and trailing  ", "{\"S\":\"x\"}", "null", "\\u00e9"})
  void spacesJsonAndEscapesAreJustCharacters(String id) {
    assertThat(WopiLockIds.isValid(id)).isTrue();
  }
}
