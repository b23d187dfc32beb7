package io.hostloom.locking.spi;

import java.util.Arrays;

/**
 * Lossless bytes of a Java string: UTF-8 for well-formed text, and WTF-8 (a lone surrogate as its
 * 3-byte generalized UTF-8 form {@code ED A0..BF xx}) for the rest.
 *
 * <p>{@code String.getBytes(UTF_8)} turns every unpaired surrogate into {@code '?'}, so distinct
 * keys or owners would collide. Here a well-formed string gets exactly its UTF-8 bytes (blob names
 * stay .NET's SHA-256 of the UTF-8 file id), and a string with a lone surrogate gets bytes that no
 * well-formed string can produce, so the mapping is injective.
 *
 * <p>For backends: the SPI allows keys, owners and data of any characters, so a backend that stores
 * bytes (Redis) or hashes keys (Azure blob names) must not lose lone surrogates.
 */
public final class LosslessUtf8 {
  private LosslessUtf8() {}

  /** The bytes of {@code s}: its UTF-8 when well-formed, WTF-8 otherwise. */
  public static byte[] encode(String s) {
    byte[] out = new byte[s.length() * 3];
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        out[n++] = (byte) c;
      } else if (c < 0x800) {
        out[n++] = (byte) (0xC0 | (c >> 6));
        out[n++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, s.charAt(++i));
        out[n++] = (byte) (0xF0 | (cp >> 18));
        out[n++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
        out[n++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
        out[n++] = (byte) (0x80 | (cp & 0x3F));
      } else { // any other BMP char, a lone surrogate included
        out[n++] = (byte) (0xE0 | (c >> 12));
        out[n++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        out[n++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }

  /**
   * The string {@link #encode} turned into {@code bytes}; for UTF-8 input the same as {@code new
   * String(bytes, UTF_8)}. A byte that starts no complete sequence becomes U+FFFD.
   */
  public static String decode(byte[] bytes) {
    StringBuilder sb = new StringBuilder(bytes.length);
    int i = 0;
    while (i < bytes.length) {
      int b0 = bytes[i] & 0xFF;
      int len = b0 < 0x80 ? 1 : b0 < 0xC2 ? 0 : b0 < 0xE0 ? 2 : b0 < 0xF0 ? 3 : b0 < 0xF5 ? 4 : 0;
      int cp = len == 1 ? b0 : len == 0 ? -1 : b0 & (0x7F >> len);
      for (int k = 1; k < len && cp >= 0; k++) {
        int b = i + k < bytes.length ? bytes[i + k] & 0xFF : -1;
        cp = (b & 0xC0) == 0x80 ? (cp << 6) | (b & 0x3F) : -1;
      }
      // reject overlong forms and code points beyond Unicode, so decoding stays encode's inverse
      if (cp < 0 || (len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))) {
        sb.append('\uFFFD');
        i++;
      } else {
        sb.appendCodePoint(cp);
        i += len;
      }
    }
    return sb.toString();
  }
}
