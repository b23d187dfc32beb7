package io.hostloom.wopihost.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class Utf7Test {
  @Test
  void decodesRfc2152Examples() {
    assertThat(Utf7.decode("Hi Mom -+Jjo--!")).isEqualTo("Hi Mom -\u263A-!");
    assertThat(Utf7.decode("+ZeVnLIqe-")).isEqualTo("\u65E5\u672C\u8A9E");
    assertThat(Utf7.decode("A+ImIDkQ.")).isEqualTo("A\u2262\u0391.");
    assertThat(Utf7.decode("1 +- 1")).isEqualTo("1 + 1");
  }

  @Test
  void plainAsciiPassesThrough() {
    assertThat(Utf7.decode("report (final).docx")).isEqualTo("report (final).docx");
  }
}
