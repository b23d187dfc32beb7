package io.hostloom.redis;

import io.lettuce.core.codec.RedisCodec;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A lossless string codec: UTF-8 for well-formed text, and WTF-8 (a lone surrogate as its 3-byte
 * generalized UTF-8 form) for the rest. Java strings may hold unpaired surrogates, which a plain
 * UTF-8 codec turns into {@code '?'}; two different owners would then compare equal on the server.
 * This encoding is injective, so owners, data and hashed keys round-trip exactly.
 */
final class Wtf8Codec implements RedisCodec<String, String> {
  static final Wtf8Codec INSTANCE = new Wtf8Codec();

  private Wtf8Codec() {}

  @Override
  public String decodeKey(ByteBuffer bytes) {
    return decode(bytes);
  }

  @Override
  public String decodeValue(ByteBuffer bytes) {
    return decode(bytes);
  }

  @Override
  public ByteBuffer encodeKey(String key) {
    return ByteBuffer.wrap(encode(key));
  }

  @Override
  public ByteBuffer encodeValue(String value) {
    return ByteBuffer.wrap(encode(value));
  }

  /** The WTF-8 bytes of {@code s}: UTF-8 when {@code s} is well-formed. */
  static byte[] encode(String s) {
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
      } else { // any other BMP char, including a lone surrogate
        out[n++] = (byte) (0xE0 | (c >> 12));
        out[n++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        out[n++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }

  /** Decodes what {@link #encode} wrote; bytes it cannot have written become U+FFFD. */
  static String decode(ByteBuffer buffer) {
    ByteBuffer b = buffer.duplicate();
    StringBuilder sb = new StringBuilder(b.remaining());
    while (b.hasRemaining()) {
      int b0 = b.get() & 0xFF;
      if (b0 < 0x80) {
        sb.append((char) b0);
      } else if ((b0 & 0xE0) == 0xC0 && b.remaining() >= 1) {
        sb.append((char) (((b0 & 0x1F) << 6) | (b.get() & 0x3F)));
      } else if ((b0 & 0xF0) == 0xE0 && b.remaining() >= 2) {
        int b1 = b.get() & 0x3F;
        int b2 = b.get() & 0x3F;
        sb.append((char) (((b0 & 0x0F) << 12) | (b1 << 6) | b2));
      } else if ((b0 & 0xF8) == 0xF0 && b.remaining() >= 3) {
        int b1 = b.get() & 0x3F;
        int b2 = b.get() & 0x3F;
        int b3 = b.get() & 0x3F;
        int cp = ((b0 & 0x07) << 18) | (b1 << 12) | (b2 << 6) | b3;
        if (Character.isValidCodePoint(cp)) {
          sb.appendCodePoint(cp);
        } else {
          sb.append('\uFFFD');
        }
      } else {
        sb.append('\uFFFD');
      }
    }
    return sb.toString();
  }
}
