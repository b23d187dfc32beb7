package io.hostloom.wopihost.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FileIdsTest {
  private final Path root = Path.of("/srv/wopi-docs").toAbsolutePath().normalize();

  @ParameterizedTest
  @ValueSource(
      strings = {
        "report.docx",
        "validator.wopitest",
        "Q3 plan (draft).xlsx",
        "naïve résumé.docx",
        "\u540d\u524d.docx",
        "emoji \uD83D\uDE00.txt",
        "CONSOLE.txt",
        "COM10",
        "icon.png",
        "a",
        "x.y.z"
      })
  void plainFileNamesAreIdsThatResolveDirectlyInsideTheRoot(String id) {
    assertThat(FileIds.isValid(id)).isTrue();
    assertThat(FileIds.resolve(root, id)).contains(root.resolve(id));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        ".",
        "..",
        "../secret",
        "..\\secret",
        "a/b",
        "a\\b",
        "/etc/passwd",
        "C:\\windows",
        "C:",
        "%2e%2e",
        "%2e%2e%2fsecret",
        "%252e%252e",
        ".wopi",
        ".hidden",
        "nul\u0000byte",
        "line\nbreak",
        "trailing.",
        "trailing ",
        " leading",
        "a*b",
        "a?b",
        "a|b",
        "report\u202Excod.exe",
        "a\u2066b.txt",
        "zero\u200Bwidth",
        "bom\uFEFF.txt",
        "lone\uD800.txt",
        "lone\uDC00.txt",
        "CON",
        "con.txt",
        "Aux.tar.gz",
        "PRN",
        "NUL .txt",
        "COM1",
        "lpt9.docx",
        "COM\u00B9",
        "CONOUT$"
      })
  void traversalsSeparatorsHiddenAndOddNamesAreRejected(String id) {
    assertThat(FileIds.isValid(id)).isFalse();
    assertThat(FileIds.resolve(root, id)).isEmpty();
  }

  @Test
  void idsLongerThanTheMaximumAreRejected() {
    assertThat(FileIds.isValid("a".repeat(FileIds.MAX_LENGTH))).isTrue();
    assertThat(FileIds.isValid("a".repeat(FileIds.MAX_LENGTH + 1))).isFalse();
    assertThat(FileIds.isValid(null)).isFalse();
  }

  @Test
  void idsOverTheByteLimitAreRejectedEvenWithinTheCharacterLimit() {
    // two bytes of UTF-8 per character: 120 fit, 121 do not
    assertThat(FileIds.isValid("\u00e9".repeat(FileIds.MAX_BYTES / 2))).isTrue();
    assertThat(FileIds.isValid("\u00e9".repeat(FileIds.MAX_BYTES / 2 + 1))).isFalse();
  }
}
