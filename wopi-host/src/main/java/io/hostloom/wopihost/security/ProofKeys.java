package io.hostloom.wopihost.security;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;

/**
 * Verification of WOPI proof keys ({@code X-WOPI-Proof}, {@code X-WOPI-ProofOld}, {@code
 * X-WOPI-TimeStamp}): the client signs, with RSA SHA-256, the bytes {@code len(token) token
 * len(URL) URL-uppercased len(8) timestamp}, lengths as 4-byte and the timestamp as an 8-byte
 * big-endian integer, strings in UTF-8. A request is genuine when the proof verifies with the
 * current key, or the old proof with the current key, or the proof with the old key (key rotation);
 * and its timestamp is no older than {@link #MAX_AGE} and at most {@link #MAX_CLOCK_SKEW} in the
 * future (a proof dated ahead would otherwise stay replayable for longer than {@code MAX_AGE}).
 */
public final class ProofKeys {
  /** The oldest timestamp accepted. */
  public static final Duration MAX_AGE = Duration.ofMinutes(20);

  /** How far ahead of this host's clock a timestamp may be (the client's clock may be ahead). */
  public static final Duration MAX_CLOCK_SKEW = Duration.ofMinutes(5);

  /** .NET ticks (100 ns since 0001-01-01T00:00Z) at the Unix epoch. */
  private static final long EPOCH_TICKS = 621_355_968_000_000_000L;

  private ProofKeys() {}

  /** Why a request was accepted or not. */
  public enum Verdict {
    VALID,
    MISSING_HEADERS,
    STALE_TIMESTAMP,
    FUTURE_TIMESTAMP,
    INVALID_SIGNATURE
  }

  /**
   * Verifies one request.
   *
   * @param accessToken the token as the client sent it in the URL
   * @param url the full request URL as the client called it (scheme, host, path, query)
   * @param timestamp the {@code X-WOPI-TimeStamp} header, or null
   * @param proof the {@code X-WOPI-Proof} header, or null
   * @param proofOld the {@code X-WOPI-ProofOld} header, or null
   */
  public static Verdict verify(
      String accessToken,
      String url,
      String timestamp,
      String proof,
      String proofOld,
      WopiDiscovery keys,
      Instant now) {
    if (timestamp == null || proof == null || accessToken == null) {
      return Verdict.MISSING_HEADERS;
    }
    long ticks;
    try {
      ticks = Long.parseLong(timestamp.strip());
    } catch (NumberFormatException e) {
      return Verdict.MISSING_HEADERS;
    }
    Instant sent = fromTicks(ticks);
    if (sent.isBefore(now.minus(MAX_AGE))) {
      return Verdict.STALE_TIMESTAMP;
    }
    if (sent.isAfter(now.plus(MAX_CLOCK_SKEW))) {
      return Verdict.FUTURE_TIMESTAMP;
    }
    byte[] expected = proofData(accessToken, url, ticks);
    Optional<PublicKey> current = keys.proofKey();
    Optional<PublicKey> old = keys.oldProofKey();
    boolean ok =
        current.map(k -> check(k, expected, proof)).orElse(false)
            || (proofOld != null && current.map(k -> check(k, expected, proofOld)).orElse(false))
            || old.map(k -> check(k, expected, proof)).orElse(false);
    return ok ? Verdict.VALID : Verdict.INVALID_SIGNATURE;
  }

  /** The bytes a WOPI client signs for a request. */
  public static byte[] proofData(String accessToken, String url, long ticks) {
    byte[] token = accessToken.getBytes(StandardCharsets.UTF_8);
    byte[] upperUrl = url.toUpperCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(4 + token.length + 4 + upperUrl.length + 4 + 8)
        .putInt(token.length)
        .put(token)
        .putInt(upperUrl.length)
        .put(upperUrl)
        .putInt(8)
        .putLong(ticks)
        .array();
  }

  /** .NET ticks for {@code instant}, the unit of {@code X-WOPI-TimeStamp}. */
  public static long toTicks(Instant instant) {
    return EPOCH_TICKS + instant.getEpochSecond() * 10_000_000L + instant.getNano() / 100;
  }

  static Instant fromTicks(long ticks) {
    long sinceEpoch = ticks - EPOCH_TICKS;
    return Instant.ofEpochSecond(
        Math.floorDiv(sinceEpoch, 10_000_000L), Math.floorMod(sinceEpoch, 10_000_000L) * 100);
  }

  private static boolean check(PublicKey key, byte[] data, String signatureBase64) {
    try {
      Signature s = Signature.getInstance("SHA256withRSA");
      s.initVerify(key);
      s.update(data);
      return s.verify(Base64.getDecoder().decode(signatureBase64.strip()));
    } catch (IllegalArgumentException | GeneralSecurityException e) {
      return false;
    }
  }
}
