package io.hostloom.jdbc;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * How keys, owners and data are stored in {@code text} columns. PostgreSQL {@code text} cannot hold
 * U+0000 and the driver cannot send a lone surrogate exactly, but the SPI allows any Java string.
 * So every string is escaped with U+0001 as the escape character:
 *
 * <ul>
 *   <li>U+0001 becomes U+0001 U+0001;
 *   <li>U+0000 becomes U+0001 {@code 0};
 *   <li>a lone surrogate becomes U+0001 {@code u} and four lower-case hex digits.
 * </ul>
 *
 * Every other string (all ordinary keys, owners and data) is stored unchanged. The mapping is
 * injective, so comparing stored forms on the server is comparing the original strings.
 *
 * <p>A key whose escaped form is longer than {@value #MAX_PLAIN_KEY_BYTES} UTF-8 bytes is stored as
 * U+0001 {@code h} and the 64 hex digits of the SHA-256 of that escaped form, which keeps the
 * primary-key index entry small (a B-tree entry must fit in about a third of a page). Escaped forms
 * never contain U+0001 {@code h}, so hashed and plain keys never meet.
 */
final class StoredText {
  /** Escaped keys up to this many UTF-8 bytes are stored as they are; longer ones hashed. */
  static final int MAX_PLAIN_KEY_BYTES = 512;

  private static final char ESCAPE = '\u0001';

  private StoredText() {}

  /** The stored form of a key. */
  static String key(String key) {
    String escaped = escape(key);
    byte[] utf8 = escaped.getBytes(StandardCharsets.UTF_8);
    if (utf8.length <= MAX_PLAIN_KEY_BYTES) {
      return escaped;
    }
    try {
      return ESCAPE
          + "h"
          + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(utf8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** The stored form of an owner or data string; {@link #unescape} reverses it. */
  static String escape(String s) {
    if (!needsEscape(s)) {
      return s;
    }
    StringBuilder out = new StringBuilder(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == ESCAPE) {
        out.append(ESCAPE).append(ESCAPE);
      } else if (c == '\u0000') {
        out.append(ESCAPE).append('0');
      } else if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        out.append(c).append(s.charAt(++i));
      } else if (Character.isSurrogate(c)) {
        out.append(ESCAPE).append('u').append(HexFormat.of().toHexDigits(c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * The original of a stored owner or data string.
   *
   * @throws IllegalArgumentException when {@code stored} is not a valid escaped form (a row not
   *     written by this backend)
   */
  static String unescape(String stored) {
    if (stored.indexOf(ESCAPE) < 0) {
      return stored;
    }
    StringBuilder out = new StringBuilder(stored.length());
    for (int i = 0; i < stored.length(); i++) {
      char c = stored.charAt(i);
      if (c != ESCAPE) {
        out.append(c);
        continue;
      }
      char kind = i + 1 < stored.length() ? stored.charAt(i + 1) : ' ';
      if (kind == ESCAPE) {
        out.append(ESCAPE);
        i++;
      } else if (kind == '0') {
        out.append('\u0000');
        i++;
      } else if (kind == 'u' && i + 6 <= stored.length()) {
        try {
          out.append((char) HexFormat.fromHexDigits(stored, i + 2, i + 6));
        } catch (IllegalArgumentException e) {
          throw malformed(i, e);
        }
        i += 5;
      } else {
        throw malformed(i, null);
      }
    }
    return out.toString();
  }

  private static boolean needsEscape(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == ESCAPE || c == '\u0000' || Character.isSurrogate(c)) {
        return true;
      }
    }
    return false;
  }

  private static IllegalArgumentException malformed(int index, Throwable cause) {
    return new IllegalArgumentException(
        "stored text has an invalid escape at index "
            + index
            + "; was the row written by HostLoom?",
        cause);
  }
}
