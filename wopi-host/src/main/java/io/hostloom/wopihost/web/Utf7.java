package io.hostloom.wopihost.web;

/**
 * UTF-7 (RFC 2152), the encoding WOPI uses for file names in {@code X-WOPI-SuggestedTarget}, {@code
 * X-WOPI-RelativeTarget}, {@code X-WOPI-RequestedName} and {@code X-WOPI-ValidRelativeTarget}. The
 * JDK has no UTF-7 charset. Plain ASCII passes through unchanged.
 */
public final class Utf7 {
  private static final String BASE64 =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

  /** RFC 2152's direct characters (set D), plus space; everything else is base64-shifted. */
  private static final String DIRECT =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'(),-./:? ";

  private Utf7() {}

  /**
   * Decodes {@code s}.
   *
   * @throws IllegalArgumentException when {@code s} is not well-formed UTF-7: a shifted sequence
   *     with non-zero leftover bits, or one that decodes to an unpaired surrogate
   */
  public static String decode(String s) {
    StringBuilder out = new StringBuilder(s.length());
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i++);
      if (c != '+') {
        out.append(c);
        continue;
      }
      if (i < s.length() && s.charAt(i) == '-') { // "+-" is a literal plus
        out.append('+');
        i++;
        continue;
      }
      int bits = 0;
      int bitCount = 0;
      while (i < s.length() && BASE64.indexOf(s.charAt(i)) >= 0) {
        bits = (bits << 6) | BASE64.indexOf(s.charAt(i++));
        bitCount += 6;
        if (bitCount >= 16) {
          bitCount -= 16;
          out.append((char) ((bits >> bitCount) & 0xFFFF));
          bits &= (1 << bitCount) - 1;
        }
      }
      if (bitCount >= 6 || bits != 0) {
        throw new IllegalArgumentException(
            "malformed UTF-7: a shifted sequence ends mid-character");
      }
      if (i < s.length() && s.charAt(i) == '-') { // the optional shift terminator is absorbed
        i++;
      }
    }
    String decoded = out.toString();
    for (int k = 0; k < decoded.length(); k++) {
      char c = decoded.charAt(k);
      if (Character.isHighSurrogate(c)
          && k + 1 < decoded.length()
          && Character.isLowSurrogate(decoded.charAt(k + 1))) {
        k++;
      } else if (Character.isSurrogate(c)) {
        throw new IllegalArgumentException("malformed UTF-7: an unpaired surrogate");
      }
    }
    return decoded;
  }

  /**
   * Encodes {@code s} into pure ASCII: direct characters as they are, {@code +} as {@code +-},
   * everything else as base64-shifted UTF-16, each shifted run closed with {@code -}.
   */
  public static String encode(String s) {
    StringBuilder out = new StringBuilder(s.length() + 8);
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (DIRECT.indexOf(c) >= 0) {
        out.append(c);
        i++;
      } else if (c == '+') {
        out.append("+-");
        i++;
      } else {
        out.append('+');
        int bits = 0;
        int bitCount = 0;
        while (i < s.length() && DIRECT.indexOf(s.charAt(i)) < 0 && s.charAt(i) != '+') {
          bits = (bits << 16) | s.charAt(i++);
          bitCount += 16;
          while (bitCount >= 6) {
            bitCount -= 6;
            out.append(BASE64.charAt((bits >> bitCount) & 0x3F));
          }
          bits &= (1 << bitCount) - 1;
        }
        if (bitCount > 0) {
          out.append(BASE64.charAt((bits << (6 - bitCount)) & 0x3F));
        }
        out.append('-');
      }
    }
    return out.toString();
  }
}
