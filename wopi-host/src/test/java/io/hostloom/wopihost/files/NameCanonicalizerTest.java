package io.hostloom.wopihost.files;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NameCanonicalizerTest {
  @ParameterizedTest(name = "{0} ~ {1}")
  @CsvSource({
    "Report.docx, report.DOCX", // case
    "Stra\u00dfe.txt, STRASSE.txt", // full case folding
    "R\u00e9sum\u00e9.docx, Re\u0301sume\u0301.docx", // NFC vs NFD
    "report.docx, \uff52\uff45\uff50\uff4f\uff52\uff54.docx", // fullwidth (NFKC)
    "\ufb01le.txt, file.txt", // ligature
    "Report.docx, R\u0435port.docx", // Cyrillic e
    "paypal.docx, \u0440\u0430yp\u0430l.docx", // Cyrillic p and a
    "Invoice.docx, lnvoice.docx", // capital I, small L
    "logo.png, l0go.png", // zero
    "modern.txt, rnodern.txt", // rn for m
    "OMEGA.txt, \u039f\u039c\u0395GA.txt", // Greek capitals
    "a-b.txt, a\u2013b.txt" // en dash
  })
  void namesThatLookAlikeShareAKey(String a, String b) {
    assertThat(NameCanonicalizer.confusable(a, b)).isTrue();
  }

  @ParameterizedTest(name = "{0} !~ {1}")
  @CsvSource({
    "report.docx, report.xlsx",
    "r\u00e9sum\u00e9.docx, resume.docx", // an accent is a different name
    "a.txt, b.txt",
    "plan.txt, plan 2.txt"
  })
  void differentNamesKeepDifferentKeys(String a, String b) {
    assertThat(NameCanonicalizer.confusable(a, b)).isFalse();
  }

  @ParameterizedTest
  @CsvSource({"Re\u0301sume\u0301.docx, R\u00e9sum\u00e9.docx", "plain.txt, plain.txt"})
  void namesAreStoredInNfc(String in, String stored) {
    assertThat(NameCanonicalizer.nfc(in)).isEqualTo(stored);
  }
}
