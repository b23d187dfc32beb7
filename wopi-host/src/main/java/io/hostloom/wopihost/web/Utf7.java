package io.hostloom.wopihost.web;

/**
 * Decodes UTF-7 (RFC 2152), the encoding WOPI uses for file names in {@code
 * X-WOPI-SuggestedTarget}, {@code X-WOPI-RelativeTarget} and {@code X-WOPI-RequestedName}. The JDK
 * has no UTF-7 charset. Plain ASCII passes through unchanged.
 */
final class Utf7 {
  private static final String BASE64 =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

  private Utf7() {}

  static String decode(String s) {
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
      if (i < s.length() && s.charAt(i) == '-') { // the optional shift terminator is absorbed
        i++;
      }
    }
    return out.toString();
  }
}
