package io.hostloom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class Wtf8CodecTest {
  private static String roundTrip(String s) {
    return Wtf8Codec.decode(ByteBuffer.wrap(Wtf8Codec.encode(s)));
  }

  @Test
  void wellFormedTextIsPlainUtf8() {
    for (String s : List.of("", "ascii", "caf\u00e9", "\u20ac", "\ud83d\ude00 emoji", "\u0000")) {
      assertThat(Wtf8Codec.encode(s)).as(s).isEqualTo(s.getBytes(StandardCharsets.UTF_8));
      assertThat(roundTrip(s)).isEqualTo(s);
    }
  }

  @Test
  void loneSurrogatesRoundTripAndStayDistinct() {
    for (String s : List.of("\ud800", "\udfff", "a\ud800b", "\udc00\ud800", "\ud83d\ud83d\ude00")) {
      assertThat(roundTrip(s)).as(s).isEqualTo(s);
    }
    assertThat(Wtf8Codec.encode("\ud800")).isNotEqualTo(Wtf8Codec.encode("\udbff"));
    assertThat(Wtf8Codec.encode("\ud800")).isNotEqualTo(Wtf8Codec.encode("?"));
  }

  @Test
  void bytesItNeverWritesDecodeToReplacementCharacters() {
    assertThat(Wtf8Codec.decode(ByteBuffer.wrap(new byte[] {(byte) 0xFF, 'a', (byte) 0xE2})))
        .isEqualTo("\uFFFDa\uFFFD");
  }

  @Test
  void decodingLeavesTheBufferPositionAlone() {
    ByteBuffer b = Wtf8Codec.INSTANCE.encodeValue("abc");
    assertThat(Wtf8Codec.INSTANCE.decodeValue(b)).isEqualTo("abc");
    assertThat(b.remaining()).isEqualTo(3);
  }
}
