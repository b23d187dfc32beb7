package io.hostloom.redis;

import io.hostloom.locking.spi.LosslessUtf8;
import io.lettuce.core.codec.RedisCodec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

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
    for (int i = 0; i < s.length(); i++) {
      if (Character.isSurrogate(s.charAt(i))) {
        return LosslessUtf8.encode(s); // a lone surrogate is possible: the lossless form
      }
    }
    return s.getBytes(StandardCharsets.UTF_8); // the same bytes, on the JDK's fast path
  }

  /** Decodes what {@link #encode} wrote; bytes it cannot have written become U+FFFD. */
  static String decode(ByteBuffer buffer) {
    ByteBuffer b = buffer.duplicate();
    byte[] bytes = new byte[b.remaining()];
    b.get(bytes);
    for (byte x : bytes) {
      if (x < 0) {
        return LosslessUtf8.decode(bytes);
      }
    }
    return new String(bytes, StandardCharsets.US_ASCII); // ASCII: both decoders agree
  }
}
