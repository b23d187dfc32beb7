package io.hostloom.locking;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Key rules and helpers. A key is an opaque non-empty string of at most {@code maxKeyLength} UTF-16
 * units without whitespace or control characters; {@code :} and other punctuation are fine. The
 * lock prefixes it as {@code <namespace>:lock:<key>} before it reaches a backend.
 *
 * <p>Never use a credential as a key: keys appear in logs and spans. {@link #fromSensitive(String)}
 * hashes a high-entropy secret (a token); {@link #fromSensitive(String, byte[])} uses a keyed hash
 * for low-entropy secrets (passwords, PINs) that a plain hash would not protect from brute force.
 */
public final class LockKey {
  private static final HexFormat HEX = HexFormat.of();
  private static final int HASH_BYTES = 16;

  private LockKey() {}

  /**
   * Checks {@code key} against the rules with the default {@link
   * LockingOptions#DEFAULT_MAX_KEY_LENGTH}.
   */
  public static String validate(String key) {
    return validate(key, LockingOptions.DEFAULT_MAX_KEY_LENGTH);
  }

  /**
   * Checks {@code key} against the rules.
   *
   * @return {@code key}
   * @throws NullPointerException when {@code key} is null
   * @throws IllegalArgumentException when it is empty, longer than {@code maxKeyLength}, or
   *     contains whitespace or a control character
   */
  public static String validate(String key, int maxKeyLength) {
    Objects.requireNonNull(key, "key");
    if (key.isEmpty()) {
      throw new IllegalArgumentException("key must not be empty");
    }
    if (key.length() > maxKeyLength) {
      throw new IllegalArgumentException(
          "key must be at most "
              + LockingOptions.KEY_MAX_KEY_LENGTH
              + " = "
              + maxKeyLength
              + " UTF-16 units long but was "
              + key.length());
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (Character.isWhitespace(c) || Character.isSpaceChar(c) || Character.isISOControl(c)) {
        throw new IllegalArgumentException(
            "key must not contain whitespace or control characters but has U+"
                + String.format("%04X", (int) c)
                + " at index "
                + i);
      }
    }
    return key;
  }

  /** Whether {@code value} is a valid namespace: non-empty, only {@code a-z}, {@code 0-9}, -. */
  public static boolean isValidNamespace(String value) {
    if (value == null || value.isEmpty()) {
      return false;
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
        return false;
      }
    }
    return true;
  }

  /**
   * A key for a high-entropy secret: the first 16 bytes of SHA-256 over its UTF-8 bytes, as 32
   * lowercase hex characters.
   */
  public static String fromSensitive(String value) {
    Objects.requireNonNull(value, "value");
    try {
      byte[] d =
          MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
      return HEX.formatHex(d, 0, HASH_BYTES);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required on every Java platform", e);
    }
  }

  /**
   * A key for a low-entropy secret: the first 16 bytes of HMAC-SHA256 keyed with {@code hmacKey}
   * over its UTF-8 bytes, as 32 lowercase hex characters.
   *
   * @throws IllegalArgumentException when {@code hmacKey} is empty
   */
  public static String fromSensitive(String value, byte[] hmacKey) {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(hmacKey, "hmacKey");
    if (hmacKey.length == 0) {
      throw new IllegalArgumentException("hmacKey must not be empty");
    }
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(hmacKey, "HmacSHA256"));
      byte[] d = mac.doFinal(value.getBytes(StandardCharsets.UTF_8));
      return HEX.formatHex(d, 0, HASH_BYTES);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is required on every Java platform", e);
    }
  }
}
