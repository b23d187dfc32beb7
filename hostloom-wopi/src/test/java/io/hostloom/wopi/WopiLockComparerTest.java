package io.hostloom.wopi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WopiLockComparerTest {
  private final WopiLockComparer ordinal = WopiLockComparer.ordinal();
  private final WopiLockComparer json = WopiLockComparer.jsonShaped();

  @Test
  void ordinalComparesExactly() {
    assertThat(ordinal.areEqual("abc", "abc")).isTrue();
    assertThat(ordinal.areEqual("abc", "abd")).isFalse();
    assertThat(ordinal.areEqual("abc", "ABC")).isFalse();
    assertThat(ordinal.areEqual("abc", "abc ")).isFalse();
    assertThat(ordinal.areEqual(null, null)).isTrue();
    assertThat(ordinal.areEqual("abc", null)).isFalse();
    assertThat(ordinal.areEqual(null, "abc")).isFalse();
    assertThat(ordinal.areEqual("{\"S\":\"a\"}", "{\"S\":\"a\",\"F\":1}")).isFalse();
    assertThat(ordinal.identity("abc")).isEqualTo("o:abc");
    assertThat(WopiLockComparer.ordinal()).isSameAs(ordinal);
  }

  @Test
  void jsonShapedTreatsEqualSValuesAsEqualWhateverElseDiffers() {
    assertThat(json.areEqual("{\"S\":\"AB12\"}", "{\"S\":\"AB12\"}")).isTrue();
    assertThat(json.areEqual("{\"S\":\"AB12\",\"F\":0}", "{\"F\":4,\"E\":[1],\"S\":\"AB12\"}"))
        .isTrue();
    assertThat(json.areEqual("{\"S\":\"AB12\"}", "{ \"S\" : \"AB12\" }\n")).isTrue();
    assertThat(json.areEqual("{\"S\":\"\\u0041\"}", "{\"S\":\"A\"}")).as("unescaped").isTrue();
    assertThat(json.areEqual("{\"S\":\"AB12\"}", "{\"S\":\"ab12\"}")).isFalse();
    assertThat(json.areEqual("{\"S\":\"AB12\"}", "{\"S\":\"AB13\",\"F\":0}")).isFalse();
    assertThat(WopiLockComparer.jsonShaped()).isSameAs(json);
  }

  @Test
  void jsonShapedFallsBackToOrdinalForEverythingElse() {
    assertThat(json.areEqual("abc", "abc")).isTrue();
    assertThat(json.areEqual("abc", "ABC")).isFalse();
    assertThat(json.areEqual("{\"S\":\"abc\"}", "abc")).as("JSON vs plain").isFalse();
    assertThat(json.areEqual("{\"S\":\"abc\"", "{\"S\":\"abc\" ")).as("malformed").isFalse();
    assertThat(json.areEqual("{\"S\":\"abc\"", "{\"S\":\"abc\"")).as("identical").isTrue();
    assertThat(json.areEqual("{\"F\":1}", "{\"F\":1,\"G\":2}")).as("no S").isFalse();
    assertThat(json.areEqual("{\"S\":1}", "{\"S\":1,\"F\":2}")).as("numeric S").isFalse();
    assertThat(json.areEqual(" {\"S\":\"a\"}", "{\"S\":\"a\"}")).as("no trimming").isFalse();
    assertThat(json.areEqual("{\"s\":\"a\"}", "{\"s\":\"a\",\"F\":1}")).as("case").isFalse();
    assertThat(json.areEqual("{\"S\":\"a\"}", null)).isFalse();
    assertThat(json.areEqual(null, null)).isTrue();
  }

  @Test
  void identitiesAreTaggedSoPlainAndJsonIdsNeverCollide() {
    assertThat(json.identity("abc")).isEqualTo("o:abc");
    assertThat(json.identity("{\"S\":\"abc\"}")).isEqualTo("s:abc");
    assertThat(json.identity("s:abc")).isEqualTo("o:s:abc");
    assertThat(json.identity("{\"S\":\"o:abc\"}")).isEqualTo("s:o:abc");
    assertThat(json.identity("{\"F\":1}")).isEqualTo("o:{\"F\":1}");
    // the two built-ins agree on every id that has no string S
    for (String id : List.of("abc", "{\"F\":1}", "{\"S\":1}", "{bad", "null")) {
      assertThat(json.identity(id)).isEqualTo(ordinal.identity(id));
    }
  }

  @Test
  void identitiesArePrintableAsciiAndInjective() {
    List<String> ids =
        List.of(
            "{\"S\":\"\\u00e9\"}", // é
            "{\"S\":\"\\\\u00e9\"}", // backslash, u, 0, 0, e, 9
            "{\"S\":\"\\n\"}",
            "{\"S\":\"\\\\n\"}",
            "{\"S\":\"\\u000a\"}", // the same newline, spelled differently
            "{\"S\":\"\\u0001\"}",
            "{\"S\":\"\\\\u0001\"}",
            "{\"S\":\"\\ud83d\\ude00\"}",
            "{\"S\":\"\\\\\"}",
            "{\"S\":\"\\\\\\\\\"}");
    Map<String, String> byIdentity = new HashMap<>();
    for (String id : ids) {
      String identity = json.identity(id);
      assertThat(identity.chars().allMatch(c -> c >= 0x20 && c <= 0x7E))
          .as("%s -> %s", id, identity)
          .isTrue();
      String s = JsonStringProperty.find(id, "S").orElseThrow();
      String previous = byIdentity.putIfAbsent(identity, s);
      assertThat(previous == null || previous.equals(s))
          .as("%s collides with a different S", id)
          .isTrue();
    }
    assertThat(json.identity("{\"S\":\"\\n\"}")).isEqualTo(json.identity("{\"S\":\"\\u000a\"}"));
    assertThat(json.identity("{\"S\":\"\\n\"}")).isNotEqualTo(json.identity("{\"S\":\"\\\\n\"}"));
    assertThat(json.identity("{\"S\":\"\\u00e9\"}")).isEqualTo("s:\\u00e9");
    assertThat(json.identity("{\"S\":\"\\\\u00e9\"}")).isEqualTo("s:\\\\u00e9");
  }

  @Test
  void identitiesOfTheLongestIdsStayWithinTheBackendsOwnerLimit() {
    List<String> worst =
        List.of(
            "{\"S\":\"" + "\\n".repeat(508) + "\"}",
            "{\"S\":\"" + "\\\\".repeat(508) + "\"}",
            "{\"S\":\"" + "\\u0001".repeat(169) + "\"}",
            "{\"S\":\"" + "\\ud83d\\ude00".repeat(84) + "\"}",
            "x".repeat(WopiLockIds.MAX_LENGTH));
    for (String id : worst) {
      assertThat(WopiLockIds.isValid(id)).as("valid: %s", id.length()).isTrue();
      assertThat(json.identity(id).length()).isLessThanOrEqualTo(WopiLockIds.MAX_LENGTH + 2);
      assertThat(ordinal.identity(id).length()).isLessThanOrEqualTo(WopiLockIds.MAX_LENGTH + 2);
    }
  }

  @Test
  void customComparersUseTheSameIdentityMethod() {
    WopiLockComparer caseInsensitive = id -> "ci:" + id.toLowerCase(Locale.ROOT);
    assertThat(caseInsensitive.areEqual("ABC", "abc")).isTrue();
    assertThat(caseInsensitive.areEqual("ABC", "abd")).isFalse();
    assertThat(caseInsensitive.areEqual(null, null)).isTrue();
    assertThat(caseInsensitive.areEqual("ABC", null)).isFalse();
  }
}
