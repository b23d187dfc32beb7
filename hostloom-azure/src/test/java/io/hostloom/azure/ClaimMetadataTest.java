package io.hostloom.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The metadata codec and the .NET timestamp format, without a server. */
class ClaimMetadataTest {

  static Stream<String> exoticValues() {
    return Stream.of(
        "",
        " ",
        " leading space",
        "trailing space ",
        "~starts with the marker",
        "~",
        "caf\u00e9 \u65e5\u672c\u8a9e \ud83d\udd12",
        "line\nbreak\tand tab\r",
        "nul\u0000 and del\u007f",
        "\u202e right-to-left override",
        "{\"S\":\"AB\\\"12\\\"CD\"}",
        "=?utf-8?B?notreally?=",
        "lone \ud800 and \udc00 surrogates",
        "x".repeat(3000));
  }

  @ParameterizedTest
  @MethodSource("exoticValues")
  void everyValueRoundTripsAsPrintableAsciiWithoutEdgeSpaces(String value) {
    String stored = ClaimMetadata.encode(value);

    assertThat(ClaimMetadata.decode(stored)).isEqualTo(value);
    assertThat(stored).isNotEmpty().doesNotStartWith(" ").doesNotEndWith(" ");
    assertThat(stored.chars()).allMatch(c -> c >= 0x20 && c <= 0x7E);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "lock-1",
        "{\"S\":\"AB12CD34\",\"F\":0}",
        "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}",
        "inner  spaces are fine",
        "null"
      })
  void printableAsciiLockIdsStayRawForDotnetInstances(String lockId) {
    assertThat(ClaimMetadata.encode(lockId)).isEqualTo(lockId);
    assertThat(ClaimMetadata.decode(lockId)).isEqualTo(lockId);
  }

  @ParameterizedTest
  @MethodSource("exoticValues")
  void claimDataRoundTripsWithAHeaderSafeUnmarkedLockIdForDotnet(String data) {
    Map<String, String> md =
        ClaimMetadata.held(
            "o", data, 1000, "0f8fad5b-d9cb-469f-a165-70867728950e", Instant.EPOCH, 1L, 1);
    String lockId = md.get("wopi_lock_id");

    assertThat(ClaimMetadata.dataOf(lockId, md.get("hl_data"))).isEqualTo(data);
    assertThat(lockId).isNotEmpty().doesNotStartWith(" ").doesNotEndWith(" ");
    assertThat(lockId.chars()).allMatch(c -> c >= 0x20 && c <= 0x7E);
    if (!data.isEmpty()
        && data.equals(data.strip())
        && data.chars().allMatch(c -> c >= 0x20 && c <= 0x7E)) {
      assertThat(lockId).as("stored raw, as .NET stores it").isEqualTo(data);
      assertThat(md).doesNotContainKey("hl_data");
    }
  }

  @Test
  void createdIsWrittenInDotnetRoundTripFormat() {
    Instant t = Instant.parse("2026-11-30T11:00:00.1234567Z");
    assertThat(ClaimMetadata.formatCreated(t)).isEqualTo("2026-11-30T11:00:00.1234567+00:00");
    assertThat(ClaimMetadata.formatCreated(Instant.parse("2026-11-30T11:00:00Z")))
        .isEqualTo("2026-11-30T11:00:00.0000000+00:00");
  }

  @Test
  void createdIsReadInEveryFormDotnetAndJavaWrite() {
    Instant t = Instant.parse("2026-11-30T11:00:00Z");
    assertThat(ClaimMetadata.parseCreated("2026-11-30T11:00:00.0000000+00:00")).contains(t);
    assertThat(ClaimMetadata.parseCreated("2026-11-30T12:00:00.0000000+01:00")).contains(t);
    assertThat(ClaimMetadata.parseCreated("2026-11-30T11:00:00Z")).contains(t);
    assertThat(ClaimMetadata.parseCreated("2026-11-30T11:00:00.000000000Z")).contains(t);
    assertThat(ClaimMetadata.parseCreated("2026-11-30T11:00:00.0000000")).contains(t);
    assertThat(ClaimMetadata.parseCreated(ClaimMetadata.RELEASED_CREATED)).isPresent();
    assertThat(ClaimMetadata.parseCreated("yesterday")).isEmpty();
    assertThat(ClaimMetadata.parseCreated(null)).isEmpty();
  }

  @Test
  void aClaimCarriesTheDotnetFieldsAndOurs() {
    Map<String, String> md =
        ClaimMetadata.held(
            "owner",
            "lock-1",
            1_800_001,
            "0f8fad5b-d9cb-469f-a165-70867728950e",
            Instant.parse("2026-11-30T11:00:00Z"),
            null,
            0);

    assertThat(md)
        .containsEntry("wopi_lock_id", "lock-1")
        .containsEntry("wopi_lease_id", "0f8fad5b-d9cb-469f-a165-70867728950e")
        .containsEntry("wopi_created", "2026-11-30T11:00:00.0000000+00:00")
        .containsEntry("hl_created", "2026-11-30T11:00:00.0000000+00:00")
        .containsEntry("hl_owner", "owner")
        .containsEntry("hl_lease_ms", "1800001")
        .containsEntry("hl_seq", "0")
        .doesNotContainKey("hl_epoch");
    assertThat(md.keySet()).allMatch(k -> k.matches("[a-z_]+"));
  }

  @Test
  void theMetadataLimitIsEnforcedBeforeAzureWould() {
    String big = "\u00e9".repeat(3000); // 6000 UTF-8 bytes, 8000 Base64 characters
    Map<String, String> md =
        ClaimMetadata.held(
            "o", big, 1000, "0f8fad5b-d9cb-469f-a165-70867728950e", Instant.EPOCH, 1L, 1);

    assertThat(ClaimMetadata.size(md)).isGreaterThan(ClaimMetadata.MAX_METADATA_BYTES);
    assertThatThrownBy(() -> ClaimMetadata.requireFits(md))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("8192")
        .hasMessageNotContaining("\u00e9");
  }
}
