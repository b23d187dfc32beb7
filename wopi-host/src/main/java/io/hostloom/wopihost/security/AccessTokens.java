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
import java.util.function.UnaryOperator;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * WOPI access tokens: {@code base64url(payload) "." base64url(HMAC-SHA256(secret, payload))} where
 * the payload is {@code "v2\n" user "\n" scope "\n" generation "\n" expiryEpochSeconds}. A token is
 * valid for exactly one user and one scope ({@link TokenScopes}: a file, a file's download URL, a
 * folder, the user's own) until its expiry and while its scope's generation is the one it was
 * issued under (so deleting a file, or revoking, ends its tokens). The MAC is checked (in constant
 * time) before any field is read. Every instance configured with the same secret (and documents
 * folder, where generations live) accepts the others' tokens.
 *
 * <p>One token has exactly one accepted spelling: unpadded base64url whose decoding encodes back to
 * the same text, the expiry in plain decimal. A signed token whose fields are out of shape (an
 * empty or over-long user, a control character, an expiry that is not a plain positive number
 * within the year 9999) is rejected like a forged one.
 */
public final class AccessTokens {
  private static final String VERSION = "v2";
  private static final long MAX_EXPIRY = 253_402_300_799L; // 9999-12-31T23:59:59Z
  private static final int MAX_USER_LENGTH = 200;
  private static final String ALGORITHM = "HmacSHA256";
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  /** The shortest secret accepted, in bytes. */
  public static final int MIN_SECRET_BYTES = 16;

  private final SecretKeySpec key;
  private final Clock clock;
  private final UnaryOperator<String> generations;

  /**
   * @param secret at least {@value #MIN_SECRET_BYTES} bytes
   * @throws IllegalArgumentException when the secret is too short
   */
  public AccessTokens(byte[] secret, Clock clock) {
    this(secret, clock, subject -> "0");
  }

  /**
   * @param secret at least {@value #MIN_SECRET_BYTES} bytes
   * @param generations the current generation of a token subject (see {@code TokenGenerations})
   * @throws IllegalArgumentException when the secret is too short
   */
  public AccessTokens(byte[] secret, Clock clock, UnaryOperator<String> generations) {
    if (secret.length < MIN_SECRET_BYTES) {
      throw new IllegalArgumentException(
          "the token secret must have at least "
              + MIN_SECRET_BYTES
              + " bytes but had "
              + secret.length);
    }
    this.key = new SecretKeySpec(secret.clone(), ALGORITHM);
    this.clock = Objects.requireNonNull(clock, "clock");
    this.generations = Objects.requireNonNull(generations, "generations");
  }

  /**
   * A verified token's claims.
   *
   * @param fileId the token's scope: a file id for the WOPI file endpoints, else a {@link
   *     TokenScopes} value
   */
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
    if (!isValidUser(user)) {
      throw new IllegalArgumentException(
          "user must have 1 to " + MAX_USER_LENGTH + " characters and no control characters");
    }
    checkField("fileId", fileId);
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("ttl must be positive but was " + ttl);
    }
    Instant full = clock.instant().plus(ttl);
    long expiry = (full.isAfter(notAfter) ? notAfter : full).getEpochSecond();
    byte[] payload =
        String.join(
                "\n",
                VERSION,
                user,
                fileId,
                generations.apply(TokenScopes.subject(fileId)),
                Long.toString(expiry))
            .getBytes(StandardCharsets.UTF_8);
    return ENCODER.encodeToString(payload) + "." + ENCODER.encodeToString(mac(payload));
  }

  /**
   * The claims of {@code token} when it is well-formed, correctly signed, unexpired, issued for
   * {@code fileId} and of its current generation; otherwise empty. Never throws for bad input.
   */
  public Optional<Claims> verify(String token, String fileId) {
    return signed(token, fileId).filter(g -> g.isCurrent).map(g -> g.claims);
  }

  /**
   * Whether {@code token} would be valid for {@code fileId} but for its generation: the file was
   * deleted (or its tokens revoked) after it was issued.
   */
  public boolean isRevoked(String token, String fileId) {
    return signed(token, fileId).filter(g -> !g.isCurrent).isPresent();
  }

  private record Genuine(Claims claims, boolean isCurrent) {}

  private Optional<Genuine> signed(String token, String fileId) {
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
    // one spelling only: no padding, no stray bits in the last character
    if (!ENCODER.encodeToString(payload).equals(token.substring(0, dot))
        || !ENCODER.encodeToString(signature).equals(token.substring(dot + 1))) {
      return Optional.empty();
    }
    if (!MessageDigest.isEqual(mac(payload), signature)) {
      return Optional.empty();
    }
    String[] fields = new String(payload, StandardCharsets.UTF_8).split("\n", -1);
    if (fields.length != 5
        || !VERSION.equals(fields[0])
        || !isValidUser(fields[1])
        || !fields[2].equals(fileId)) {
      return Optional.empty();
    }
    Optional<Instant> expiry = expiry(fields[4]);
    if (expiry.isEmpty() || !clock.instant().isBefore(expiry.get())) {
      return Optional.empty();
    }
    // not current: revoked, or issued for a deleted file (perhaps one of the same id)
    boolean current =
        MessageDigest.isEqual(
            fields[3].getBytes(StandardCharsets.UTF_8),
            generations.apply(TokenScopes.subject(fileId)).getBytes(StandardCharsets.UTF_8));
    return Optional.of(new Genuine(new Claims(fields[1], fields[2], expiry.get()), current));
  }

  /** A plain positive decimal up to {@link #MAX_EXPIRY}: no sign, no leading zero, no space. */
  private static Optional<Instant> expiry(String field) {
    if (field.isEmpty() || field.length() > 12 || !field.matches("[1-9][0-9]*")) {
      return Optional.empty();
    }
    long seconds = Long.parseLong(field);
    return seconds > MAX_EXPIRY ? Optional.empty() : Optional.of(Instant.ofEpochSecond(seconds));
  }

  private static boolean isValidUser(String user) {
    if (user.isEmpty() || user.length() > MAX_USER_LENGTH || !user.strip().equals(user)) {
      return false;
    }
    return user.codePoints().noneMatch(Character::isISOControl);
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
