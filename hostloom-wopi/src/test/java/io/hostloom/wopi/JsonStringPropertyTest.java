package io.hostloom.wopi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class JsonStringPropertyTest {

  private static Optional<String> s(String json) {
    return JsonStringProperty.find(json, "S");
  }

  @Test
  void findsATopLevelStringProperty() {
    assertThat(s("{\"S\":\"abc\"}")).contains("abc");
    assertThat(s("{\"F\":0,\"S\":\"abc\",\"E\":[1,2]}")).contains("abc");
    assertThat(s("{\"S\":\"\"}")).contains("");
    assertThat(JsonStringProperty.find("{\"S\":\"a\",\"name\":\"b\"}", "name")).contains("b");
  }

  @Test
  void acceptsJsonWhitespaceInsideAndAfterButNothingBefore() {
    assertThat(s("{ \"S\" :\t\"abc\"\r\n}")).contains("abc");
    assertThat(s("{\"S\":\"abc\"} \n\t\r")).contains("abc");
    assertThat(s(" {\"S\":\"abc\"}")).isEmpty();
    assertThat(s("\ufeff{\"S\":\"abc\"}")).as("byte-order mark").isEmpty();
    assertThat(s("{\"S\":\"abc\"}\u00a0")).as("not JSON whitespace").isEmpty();
  }

  @Test
  void theNameIsCaseSensitiveAndMatchedAfterUnescaping() {
    assertThat(s("{\"s\":\"abc\"}")).isEmpty();
    assertThat(s("{\"\\u0053\":\"abc\"}")).contains("abc");
    assertThat(s("{\"S \":\"abc\"}")).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"S\":1}",
        "{\"S\":-1.5e3}",
        "{\"S\":null}",
        "{\"S\":true}",
        "{\"S\":false}",
        "{\"S\":{\"S\":\"abc\"}}",
        "{\"S\":[\"abc\"]}",
        "{\"X\":{\"S\":\"abc\"}}",
        "{}",
        "{\"F\":\"abc\"}"
      })
  void onlyATopLevelStringCounts(String json) {
    assertThat(s(json)).isEmpty();
  }

  @Test
  void theLastOccurrenceOfARepeatedNameWins() {
    assertThat(s("{\"S\":\"a\",\"S\":\"b\"}")).contains("b");
    assertThat(s("{\"S\":\"a\",\"S\":1}")).isEmpty();
    assertThat(s("{\"S\":null,\"S\":\"b\"}")).contains("b");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "a\\\"b | a\"b",
        "a\\\\b | a\\b",
        "a\\/b | a/b",
        "\\u0041\\u00e9\\u00E9 | Aéé",
        "\\ud83d\\ude00 | \ud83d\ude00",
        "\\uD83D\\uDE00x | \ud83d\ude00x",
        "\\u005c\\u0022 | \\\"",
        "raw é and \ud83d\ude00 | raw é and \ud83d\ude00",
      })
  void decodesEveryEscape(String escaped, String decoded) {
    assertThat(s("{\"S\":\"" + escaped + "\"}")).contains(decoded);
  }

  @Test
  void decodesTheControlCharacterEscapes() {
    assertThat(s("{\"S\":\"\\b\\f\\n\\r\\t\"}")).contains("\b\f\n\r\t");
    assertThat(s("{\"S\":\"\\u0000\\u001F\"}")).contains("\u0000\u001f");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"S\":\"\\ud83d\"}", // lone high surrogate
        "{\"S\":\"\\ude00\"}", // lone low surrogate
        "{\"S\":\"\\ude00\\ud83d\"}", // reversed pair
        "{\"S\":\"\\ud83dx\"}",
        "{\"S\":\"ok\",\"F\":\"\\ud83d\"}", // in another property
        "{\"S\":\"\ud83d\"}", // raw lone surrogate
        "{\"S\":\"\\x\"}", // unknown escape
        "{\"S\":\"\\u12\"}", // short \\u escape
        "{\"S\":\"\\u12G4\"}", // bad hex digit
        "{\"S\":\"\\U0041\"}", // escapes are case-sensitive
        "{\"S\":\"\\'\"}",
        "{\"S\":\"a\nb\"}", // raw control character
        "{\"S\":\"a\u0000\"}",
        "{\"S\":\"unterminated}",
        "{\"S\":\"a\\\"}"
      })
  void badStringsMakeTheDocumentMalformed(String json) {
    assertThat(s(json)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "{",
        "}",
        "[]",
        "\"S\"",
        "{\"S\":\"a\"",
        "{\"S\":\"a\",}",
        "{,\"S\":\"a\"}",
        "{\"S\" \"a\"}",
        "{\"S\":}",
        "{S:\"a\"}",
        "{'S':'a'}",
        "{\"S\":\"a\"}x",
        "{\"S\":\"a\"}{}",
        "{\"S\":\"a\"},",
        "{/*c*/\"S\":\"a\"}",
        "{\"S\":\"a\" // c\n}",
        "{\"S\":\"a\";\"F\":1}",
        "{\"F\":01,\"S\":\"a\"}",
        "{\"F\":1.,\"S\":\"a\"}",
        "{\"F\":.5,\"S\":\"a\"}",
        "{\"F\":-,\"S\":\"a\"}",
        "{\"F\":1e,\"S\":\"a\"}",
        "{\"F\":+1,\"S\":\"a\"}",
        "{\"F\":NaN,\"S\":\"a\"}",
        "{\"F\":Infinity,\"S\":\"a\"}",
        "{\"F\":tru,\"S\":\"a\"}",
        "{\"F\":nul,\"S\":\"a\"}",
        "{\"F\":True,\"S\":\"a\"}",
        "{\"F\":[1,],\"S\":\"a\"}",
        "{\"F\":[1 2],\"S\":\"a\"}",
        "{\"F\":{\"a\"},\"S\":\"a\"}",
        "{\"F\":{\"a\":1,},\"S\":\"a\"}",
        "{\"F\":[,\"S\":\"a\"}"
      })
  void malformedDocumentsHaveNoProperties(String json) {
    assertThat(s(json)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"F\":0,\"S\":\"a\"}",
        "{\"F\":-0,\"S\":\"a\"}",
        "{\"F\":-0.5e+10,\"S\":\"a\"}",
        "{\"F\":12.25E-3,\"S\":\"a\"}",
        "{\"F\":1e5,\"S\":\"a\"}",
        "{\"F\":true,\"G\":false,\"H\":null,\"S\":\"a\"}",
        "{\"F\":[],\"G\":{},\"S\":\"a\"}",
        "{\"F\":[1,[2,{\"b\":[]}],\"x\"],\"S\":\"a\"}",
        "{\"F\":{\"S\":\"nested\",\"T\":[null]},\"S\":\"a\"}",
        "{\"\":\"\",\"S\":\"a\"}"
      })
  void wellFormedValuesOfEveryKindAreSkipped(String json) {
    assertThat(s(json)).contains("a");
  }

  @Test
  void nestingIsLimitedTo64Levels() {
    int deepest = JsonStringProperty.MAX_DEPTH - 1; // arrays inside the top-level object
    String ok = "{\"F\":" + "[".repeat(deepest) + "]".repeat(deepest) + ",\"S\":\"a\"}";
    String tooDeep =
        "{\"F\":" + "[".repeat(deepest + 1) + "]".repeat(deepest + 1) + ",\"S\":\"a\"}";
    assertThat(s(ok)).contains("a");
    assertThat(s(tooDeep)).isEmpty();
    String objects =
        "{\"F\":" + "{\"x\":".repeat(deepest) + "1" + "}".repeat(deepest) + ",\"S\":\"a\"}";
    assertThat(s(objects)).contains("a");
  }

  /** Random strings over every UTF-16 code point class survive escaping in every style. */
  @Test
  void randomValuesRoundTripThroughEveryEscapingStyle() {
    Random random = new Random(20260101L);
    for (int n = 0; n < 2000; n++) {
      String value = randomValue(random);
      for (int style = 0; style < 3; style++) {
        String json =
            "{\"F\":" + random.nextInt(1000) + ",\"S\":\"" + escape(value, style) + "\",\"E\":[]}";
        assertThat(s(json)).as("style %d: %s", style, json).contains(value);
      }
    }
  }

  private static String randomValue(Random random) {
    StringBuilder sb = new StringBuilder();
    int length = random.nextInt(12);
    for (int i = 0; i < length; i++) {
      switch (random.nextInt(5)) {
        case 0 -> sb.append((char) random.nextInt(0x20)); // control
        case 1 -> sb.append((char) (0x20 + random.nextInt(0x5F))); // printable ASCII
        case 2 -> sb.append((char) (0x80 + random.nextInt(0xD800 - 0x80))); // BMP, no surrogates
        case 3 -> sb.appendCodePoint(0x10000 + random.nextInt(0x100000)); // a surrogate pair
        default -> sb.append("\"\\/".charAt(random.nextInt(3)));
      }
    }
    return sb.toString();
  }

  /** Style 0: minimal escapes; 1: everything non-ASCII as uXXXX; 2: every character as uXXXX. */
  private static String escape(String value, int style) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (style == 2 || c < 0x20 || (style == 1 && c > 0x7E)) {
        sb.append(String.format("\\u%04x", (int) c));
      } else if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  @Test
  void nothingThrowsOnArbitraryInput() {
    Random random = new Random(7);
    String alphabet = "{}[]\":,\\u0123456789abcdefSEtrunlse.-+ \n\t";
    List<String> seeds = new ArrayList<>();
    for (int n = 0; n < 20000; n++) {
      StringBuilder sb = new StringBuilder("{");
      int length = random.nextInt(30);
      for (int i = 0; i < length; i++) {
        sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      seeds.add(sb.toString());
    }
    for (String json : seeds) {
      assertThat(s(json)).isNotNull();
    }
  }
}
