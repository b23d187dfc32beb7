package io.hostloom.wopihost.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * WOPI access tokens: {@code base64url(payload) "." base64url(HMAC-SHA256(secret, payload))} where
 * the payload is {@code "v1\n" user "\n" fileId "\n" expiryEpochSeconds}. A token is valid for
 * exactly one user and one file until its expiry; the MAC is checked (in constant time) before any
 * field is read. Every instance configured with the same secret accepts the others' tokens.
 */
public final class AccessTokens {
  private static final String VERSION = "v1";
  private static final String ALGORITHM = "HmacSHA256";
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  /** The shortest secret accepted, in bytes. */
  public static final int MIN_SECRET_BYTES = 16;

  private final SecretKeySpec key;
  private final Clock clock;

  /**
   * @param secret at least {@value #MIN_SECRET_BYTES} bytes
   * @throws IllegalArgumentException when the secret is too short
   */
  public AccessTokens(byte[] secret, Clock clock) {
    if (secret.length < MIN_SECRET_BYTES) {
      throw new IllegalArgumentException(
          "the token secret must have at least "
              + MIN_SECRET_BYTES
              + " bytes but had "
              + secret.length);
    }
    this.key = new SecretKeySpec(secret.clone(), ALGORITHM);
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** A verified token's claims. */
  public record Claims(String user, String fileId, Instant expiry) {}

  /**
   * Issues a token for {@code user} on {@code fileId}, valid for {@code ttl} from now.
   *
   * @throws IllegalArgumentException for an empty user or id, a line break in either, or a
   *     non-positive ttl
   */
  public String issue(String user, String fileId, Duration ttl) {
    return issue(user, fileId, ttl, Instant.MAX);
  }

  /**
   * Issues a token minted from another token: valid for {@code ttl} from now, but never after
   * {@code source}'s expiry, so a chain of minted tokens cannot outlive the token it started from.
   *
   * @throws IllegalArgumentException as {@link #issue(String, String, Duration)}
   */
  public String issueFrom(Claims source, String fileId, Duration ttl) {
    return issue(source.user(), fileId, ttl, source.expiry());
  }

  private String issue(String user, String fileId, Duration ttl, Instant notAfter) {
    checkField("user", user);
    checkField("fileId", fileId);
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("ttl must be positive but was " + ttl);
    }
    Instant full = clock.instant().plus(ttl);
    long expiry = (full.isAfter(notAfter) ? notAfter : full).getEpochSecond();
    byte[] payload =
        String.join("\n", VERSION, user, fileId, Long.toString(expiry))
            .getBytes(StandardCharsets.UTF_8);
    return ENCODER.encodeToString(payload) + "." + ENCODER.encodeToString(mac(payload));
  }

  /**
   * The claims of {@code token} when it is well-formed, correctly signed, unexpired and issued for
   * {@code fileId}; otherwise empty. Never throws for bad input.
   */
  public Optional<Claims> verify(String token, String fileId) {
    if (token == null || fileId == null) {
      return Optional.empty();
    }
    int dot = token.indexOf('.');
    if (dot <= 0 || dot != token.lastIndexOf('.')) {
      return Optional.empty();
    }
    byte[] payload;
    byte[] signature;
    try {
      payload = DECODER.decode(token.substring(0, dot));
      signature = DECODER.decode(token.substring(dot + 1));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (!MessageDigest.isEqual(mac(payload), signature)) {
      return Optional.empty();
    }
    String[] fields = new String(payload, StandardCharsets.UTF_8).split("\n", -1);
    if (fields.length != 4 || !VERSION.equals(fields[0]) || !fields[2].equals(fileId)) {
      return Optional.empty();
    }
    Instant expiry;
    try {
      expiry = Instant.ofEpochSecond(Long.parseLong(fields[3]));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    if (!clock.instant().isBefore(expiry)) {
      return Optional.empty();
    }
    return Optional.of(new Claims(fields[1], fields[2], expiry));
  }

  private byte[] mac(byte[] payload) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(key);
      return mac.doFinal(payload);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  private static void checkField(String name, String value) {
    if (value == null || value.isEmpty() || value.indexOf('\n') >= 0) {
      throw new IllegalArgumentException(name + " must be non-empty without line breaks");
    }
  }
}
