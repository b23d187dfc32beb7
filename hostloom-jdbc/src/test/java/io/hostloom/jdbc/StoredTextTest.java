package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class StoredTextTest {
  private static final List<String> TRICKY =
      List.of(
          "",
          "plain",
          "back\\slash",
          "nul\u0000",
          "\u0000",
          "\u0001",
          "\u00010",
          "\u0001\u0001",
          "\u0001u0041",
          "lone high \ud800 end",
          "lone low \udc00",
          "\ud800",
          "pair \ud83d\udd12",
          "reversed \udd12\ud83d",
          "\u0001h" + "0".repeat(64),
          "mixed \u0000\u0001\ud800\ud83d\udd12");

  @Test
  void escapeRoundTripsAndIsInjective() {
    Set<String> stored = new HashSet<>();
    for (String s : TRICKY) {
      String e = StoredText.escape(s);
      assertThat(StoredText.unescape(e)).as("round trip of %s", e).isEqualTo(s);
      assertThat(e).doesNotContain("\u0000");
      assertThat(hasLoneSurrogate(e)).isFalse();
      assertThat(stored.add(e)).as("distinct stored form for %s", s).isTrue();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"plain", "C:\\path\\file.docx", "é€🔒", "spaces and ;'\"--"})
  void ordinaryStringsAreStoredUnchanged(String s) {
    assertThat(StoredText.escape(s)).isEqualTo(s);
    assertThat(StoredText.key(s)).isEqualTo(s);
  }

  @Test
  void longKeysAreHashedAndStayDistinct() {
    String base = "k".repeat(StoredText.MAX_PLAIN_KEY_BYTES);
    assertThat(StoredText.key(base)).isEqualTo(base);
    String longer = base + "x";
    String other = base + "y";
    assertThat(StoredText.key(longer))
        .startsWith("\u0001h")
        .hasSize(66)
        .isNotEqualTo(StoredText.key(other));
    // a short key can never look like a hashed one: its escape doubles U+0001
    String lookalike = StoredText.key(longer);
    assertThat(StoredText.key(lookalike)).isNotEqualTo(lookalike);
    // multi-byte characters count in UTF-8 bytes
    String wide = "€".repeat(StoredText.MAX_PLAIN_KEY_BYTES / 3 + 1);
    assertThat(wide.getBytes(StandardCharsets.UTF_8).length)
        .isGreaterThan(StoredText.MAX_PLAIN_KEY_BYTES);
    assertThat(StoredText.key(wide)).startsWith("\u0001h");
  }

  @ParameterizedTest
  @ValueSource(strings = {"\u0001", "a\u0001", "\u0001x", "\u0001u12", "\u0001uzzzz"})
  void malformedStoredTextIsRejected(String stored) {
    assertThatThrownBy(() -> StoredText.unescape(stored))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid escape");
  }

  private static boolean hasLoneSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return true;
      }
    }
    return false;
  }
}
