package io.hostloom.wopihost.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

  @Test
  void malformedShiftedSequencesAreRefused() {
    assertThatThrownBy(() -> Utf7.decode("+2AA-")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Utf7.decode("+3AA-")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Utf7.decode("+AAAA-")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Utf7.decode("+Jjp-")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void encodingIsAsciiAndDecodesBack() {
    for (String s :
        new String[] {
          "report (final).docx",
          "1 + 1.txt",
          "\u540d\u524d (1).docx",
          "na\u00efve r\u00e9sum\u00e9.docx",
          "emoji \uD83D\uDE00!",
          "~tilde\\back"
        }) {
      String encoded = Utf7.encode(s);
      assertThat(encoded).as(s).matches("[\\x20-\\x7e]*");
      assertThat(Utf7.decode(encoded)).isEqualTo(s);
    }
    assertThat(Utf7.encode("\u65E5\u672C\u8A9E")).isEqualTo("+ZeVnLIqe-");
  }
}
