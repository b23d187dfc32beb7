package io.hostloom.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.LosslessUtf8;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Key to blob name, without a server: .NET-compatible for real keys, collision-free for all. */
class BlobNameTest {

  @Test
  void wellFormedKeysKeepTheSha256OfTheirUtf8() {
    // known vectors: FIPS 180-2 "abc", and a non-BMP key computed with Python's hashlib
    assertThat(AzureBlobLockBackend.blobName("abc"))
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assertThat(AzureBlobLockBackend.blobName("caf\u00e9 \ud83d\udd12"))
        .isEqualTo("e3dfe0374c98af777c4f339f0192ca4fa3e4b98a211d531d4b9ea3527e31cf74");
  }

  @Test
  void loneSurrogatesGetDistinctNames() {
    List<String> keys =
        List.of(
            "doc-\uD800", "doc-\uDBFF", "doc-\uDC00", "doc-\uDC00\uD800", "doc-?", "doc-\uFFFD");

    assertThat(keys.stream().map(AzureBlobLockBackend::blobName))
        .doesNotHaveDuplicates()
        .allMatch(name -> name.matches("[0-9a-f]{64}"));
    // the WTF-8 form: U+D800 as ED A0 80, bytes no well-formed UTF-8 can contain
    assertThat(AzureBlobLockBackend.blobName("doc-\uD800"))
        .isEqualTo("2acae51f9bb5bd79fe38bccf01ff58df69168b99c96875bba5a591fc1871a55d");
  }

  @Test
  void wtf8IsUtf8ForWellFormedTextAndRoundTripsLoneSurrogates() {
    String wellFormed = "a\u00e9\u65e5\ud83d\udd12\u0000\uffff";
    assertThat(LosslessUtf8.encode(wellFormed))
        .isEqualTo(wellFormed.getBytes(StandardCharsets.UTF_8));
    assertThat(LosslessUtf8.decode(LosslessUtf8.encode(wellFormed))).isEqualTo(wellFormed);

    for (String s : List.of("\uD800", "x\uDBFFy", "\uDC00\uD800", "\uD83D\uD83D\uDD12\uDD12")) {
      assertThat(LosslessUtf8.decode(LosslessUtf8.encode(s))).isEqualTo(s);
    }
    assertThat(LosslessUtf8.encode("\uD800")).containsExactly(0xED, 0xA0, 0x80);
  }

  @Test
  void malformedBytesDecodeToReplacementCharacters() {
    byte[] bad = {(byte) 0xC0, (byte) 0x80, 'a', (byte) 0xE2, (byte) 0x82, (byte) 0xF8};
    assertThat(LosslessUtf8.decode(bad)).isEqualTo("\uFFFD\uFFFDa\uFFFD\uFFFD\uFFFD");
  }
}
