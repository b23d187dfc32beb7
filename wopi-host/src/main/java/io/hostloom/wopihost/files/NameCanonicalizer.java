package io.hostloom.wopihost.files;

import java.text.Normalizer;
import java.util.Locale;
import java.util.Map;

/**
 * When two file names would look the same to a user: names that differ only by case, by Unicode
 * normalisation (NFC or NFD, a precomposed {@code é} or {@code e} plus a combining accent), by a
 * compatibility form (fullwidth {@code ｒｅｐｏｒｔ}, the {@code ﬁ} ligature) or by a common homoglyph
 * (Cyrillic {@code а} for Latin {@code a}, {@code 0} for {@code o}, {@code rn} for {@code m}) have
 * the same {@link #key}.
 *
 * <p>The key is: NFKC; case folded (upper then lower case, so {@code ß} folds to {@code ss}); NFD;
 * each code point of a small confusables table mapped to its Latin look-alike; NFC. The table is
 * this class's {@code CONFUSABLES} plus the sequences {@code rn}→{@code m} and {@code vv}→{@code
 * w}: the Cyrillic and Greek letters that look like Latin ones, dotless and other i-like letters,
 * the digits {@code 0} and {@code 1}, and the dashes. It is deliberately small and errs on calling
 * names alike ({@code l}, {@code 1} and {@code i} share a key, as a capital {@code I} looks like an
 * {@code l}); it is not Unicode's full confusables list (UTS #39), so rarer look-alikes still pass.
 */
public final class NameCanonicalizer {
  private static final Map<Integer, String> CONFUSABLES =
      Map.ofEntries(
          // Cyrillic (lower case: keys are case folded)
          Map.entry(0x0430, "a"), // а
          Map.entry(0x0432, "b"), // в (capital В looks like B)
          Map.entry(0x0435, "e"), // е
          Map.entry(0x043A, "k"), // к
          Map.entry(0x043C, "m"), // м (capital М)
          Map.entry(0x043D, "h"), // н (capital Н)
          Map.entry(0x043E, "o"), // о
          Map.entry(0x0440, "p"), // р
          Map.entry(0x0441, "c"), // с
          Map.entry(0x0442, "t"), // т (capital Т)
          Map.entry(0x0443, "y"), // у
          Map.entry(0x0445, "x"), // х
          Map.entry(0x0455, "s"), // ѕ
          Map.entry(0x0456, "i"), // і
          Map.entry(0x0458, "j"), // ј
          Map.entry(0x04BB, "h"), // һ
          Map.entry(0x04CF, "i"), // ӏ
          Map.entry(0x0501, "d"), // ԁ
          Map.entry(0x051B, "q"), // ԛ
          Map.entry(0x051D, "w"), // ԝ
          // Greek
          Map.entry(0x03B1, "a"), // α
          Map.entry(0x03B2, "b"), // β (capital Β)
          Map.entry(0x03B5, "e"), // ε (capital Ε)
          Map.entry(0x03B7, "h"), // η (capital Η)
          Map.entry(0x03B9, "i"), // ι
          Map.entry(0x03BA, "k"), // κ
          Map.entry(0x03BC, "m"), // μ (capital Μ)
          Map.entry(0x03BD, "v"), // ν
          Map.entry(0x03BF, "o"), // ο
          Map.entry(0x03C1, "p"), // ρ
          Map.entry(0x03C4, "t"), // τ
          Map.entry(0x03C5, "u"), // υ
          Map.entry(0x03C7, "x"), // χ
          Map.entry(0x03B6, "z"), // ζ (capital Ζ)
          // Latin look-alikes and digits
          Map.entry(0x0131, "i"), // ı dotless i
          Map.entry(0x0269, "i"), // ɩ
          Map.entry(0x0251, "a"), // ɑ
          Map.entry(0x0261, "g"), // ɡ
          Map.entry((int) 'l', "i"),
          Map.entry((int) '1', "i"),
          Map.entry((int) '0', "o"),
          // dashes
          Map.entry(0x2010, "-"),
          Map.entry(0x2011, "-"),
          Map.entry(0x2012, "-"),
          Map.entry(0x2013, "-"),
          Map.entry(0x2014, "-"),
          Map.entry(0x2015, "-"),
          Map.entry(0x2212, "-"));

  private NameCanonicalizer() {}

  /** {@code name} in NFC, the form the host stores names in. */
  public static String nfc(String name) {
    return Normalizer.normalize(name, Normalizer.Form.NFC);
  }

  /** The skeleton two names share when they would look the same (see the class comment). */
  public static String key(String name) {
    String folded =
        Normalizer.normalize(name, Normalizer.Form.NFKC)
            .toUpperCase(Locale.ROOT)
            .toLowerCase(Locale.ROOT);
    String decomposed = Normalizer.normalize(folded, Normalizer.Form.NFD);
    StringBuilder mapped = new StringBuilder(decomposed.length());
    decomposed
        .codePoints()
        .forEach(
            cp -> {
              String to = CONFUSABLES.get(cp);
              if (to != null) {
                mapped.append(to);
              } else {
                mapped.appendCodePoint(cp);
              }
            });
    String skeleton = mapped.toString().replace("rn", "m").replace("vv", "w");
    return Normalizer.normalize(skeleton, Normalizer.Form.NFC);
  }

  /** Whether {@code a} and {@code b} would look the same to a user. */
  public static boolean confusable(String a, String b) {
    return key(a).equals(key(b));
  }
}
