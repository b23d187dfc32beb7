package io.hostloom.wopihost.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.wopihost.security.ProofKeys.Verdict;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProofKeysTest {
  static final KeyPair CURRENT = generate();
  static final KeyPair OLD = generate();
  static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  static final String TOKEN = "token-123";
  static final String URL = "https://host.example/wopi/files/a.docx?access_token=token-123";

  static KeyPair generate() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
      g.initialize(2048);
      return g.generateKeyPair();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static final WopiDiscovery KEYS =
      new WopiDiscovery(Optional.of(CURRENT.getPublic()), Optional.of(OLD.getPublic()), List.of());

  static Verdict verify(long ticks, String proof, String proofOld) {
    return ProofKeys.verify(TOKEN, URL, Long.toString(ticks), proof, proofOld, KEYS, NOW);
  }

  @Test
  void theProofSignedWithTheCurrentKeyIsValid() {
    long ticks = ProofKeys.toTicks(NOW);
    assertThat(verify(ticks, ProofSigner.sign(CURRENT, TOKEN, URL, ticks), null))
        .isEqualTo(Verdict.VALID);
  }

  @Test
  void keyRotationIsAccepted() {
    long ticks = ProofKeys.toTicks(NOW);
    String byCurrent = ProofSigner.sign(CURRENT, TOKEN, URL, ticks);
    String byOld = ProofSigner.sign(OLD, TOKEN, URL, ticks);
    String byStranger = ProofSigner.sign(generate(), TOKEN, URL, ticks);
    // the client rotated before the host re-read discovery: ProofOld signed with our current key
    assertThat(verify(ticks, byStranger, byCurrent)).isEqualTo(Verdict.VALID);
    // the host rotated before the client: Proof signed with our old key
    assertThat(verify(ticks, byOld, null)).isEqualTo(Verdict.VALID);
    // old proof by the old key is not a combination WOPI allows
    assertThat(verify(ticks, byStranger, byOld)).isEqualTo(Verdict.INVALID_SIGNATURE);
  }

  @Test
  void aProofForAnotherUrlTokenOrTimestampIsInvalid() {
    long ticks = ProofKeys.toTicks(NOW);
    assertThat(verify(ticks, ProofSigner.sign(CURRENT, TOKEN, URL + "&x=1", ticks), null))
        .isEqualTo(Verdict.INVALID_SIGNATURE);
    assertThat(verify(ticks, ProofSigner.sign(CURRENT, "other", URL, ticks), null))
        .isEqualTo(Verdict.INVALID_SIGNATURE);
    assertThat(verify(ticks, ProofSigner.sign(CURRENT, TOKEN, URL, ticks - 1), null))
        .isEqualTo(Verdict.INVALID_SIGNATURE);
    assertThat(verify(ticks, "not base64 !", null)).isEqualTo(Verdict.INVALID_SIGNATURE);
  }

  @Test
  void theUrlIsComparedUpperCased() {
    long ticks = ProofKeys.toTicks(NOW);
    String proof = ProofSigner.sign(CURRENT, TOKEN, URL.toUpperCase(java.util.Locale.ROOT), ticks);
    assertThat(verify(ticks, proof, null)).isEqualTo(Verdict.VALID);
  }

  @Test
  void timestampsOlderThanTwentyMinutesAreStale() {
    long fresh = ProofKeys.toTicks(NOW.minus(Duration.ofMinutes(20)));
    long stale = ProofKeys.toTicks(NOW.minus(Duration.ofMinutes(20)).minusMillis(1));
    assertThat(verify(fresh, ProofSigner.sign(CURRENT, TOKEN, URL, fresh), null))
        .isEqualTo(Verdict.VALID);
    assertThat(verify(stale, ProofSigner.sign(CURRENT, TOKEN, URL, stale), null))
        .isEqualTo(Verdict.STALE_TIMESTAMP);
  }

  @Test
  void missingHeadersAreReported() {
    assertThat(ProofKeys.verify(TOKEN, URL, null, "p", null, KEYS, NOW))
        .isEqualTo(Verdict.MISSING_HEADERS);
    assertThat(ProofKeys.verify(TOKEN, URL, "123", null, null, KEYS, NOW))
        .isEqualTo(Verdict.MISSING_HEADERS);
    assertThat(ProofKeys.verify(TOKEN, URL, "abc", "p", null, KEYS, NOW))
        .isEqualTo(Verdict.MISSING_HEADERS);
  }

  @Test
  void ticksRoundTripAndMatchDotNet() {
    // DateTime(2000, 1, 1, 0, 0, 0, DateTimeKind.Utc).Ticks
    assertThat(ProofKeys.toTicks(Instant.parse("2000-01-01T00:00:00Z")))
        .isEqualTo(630_822_816_000_000_000L);
    assertThat(ProofKeys.fromTicks(ProofKeys.toTicks(NOW))).isEqualTo(NOW);
  }

  @Test
  void discoveryGivesKeysAndOpenUrls() throws IOException {
    String xml = ProofSigner.discoveryXml(CURRENT, OLD, "https://office.example");
    WopiDiscovery d =
        WopiDiscovery.parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    assertThat(d.proofKey()).contains(CURRENT.getPublic());
    assertThat(d.oldProofKey()).contains(OLD.getPublic());
    assertThat(d.openUrl("DOCX", "http://h/wopi/files/a b.docx"))
        .contains(
            "https://office.example/we/wordeditorframe.aspx?WOPISrc=http%3A%2F%2Fh%2Fwopi%2Ffiles%2Fa+b.docx");
    assertThat(d.openUrl("txt", "x")).isEmpty();
  }

  @Test
  void discoveryWithADoctypeIsRefused() {
    String xxe =
        "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>"
            + "<wopi-discovery>&e;</wopi-discovery>";
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                WopiDiscovery.parse(new ByteArrayInputStream(xxe.getBytes(StandardCharsets.UTF_8))))
        .isInstanceOf(IOException.class);
  }
}
