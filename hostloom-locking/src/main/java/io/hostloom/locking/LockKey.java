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
 * <p>The namespace {@value #RESERVED_NAMESPACE} is reserved: the WOPI face keeps its locks under
 * {@code wopi:lock:<fileId>} on the same backends, so a kernel namespace {@code wopi} would share
 * their keys. Other faces check their prefixes with {@link #canPrefixKernelKey(String)}.
 *
 * <p>Never use a credential as a key: keys appear in logs and spans. {@link #fromSensitive(String)}
 * hashes a high-entropy secret (a token); {@link #fromSensitive(String, byte[])} uses a keyed hash
 * for low-entropy secrets (passwords, PINs) that a plain hash would not protect from brute force.
 */
public final class LockKey {
  private static final HexFormat HEX = HexFormat.of();
  private static final int HASH_BYTES = 16;

  /** The namespace no kernel lock may use: the WOPI face's keys start with {@code wopi:lock:}. */
  public static final String RESERVED_NAMESPACE = "wopi";

  private static final String LOCK_INFIX = ":lock:";

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
   * Whether some kernel key ({@code <namespace>:lock:<key>} with a valid, non-reserved namespace
   * and a valid key) starts with {@code prefix}: then another face keying its records {@code prefix
   * + id} could name a kernel lock's record for some id. True for the empty prefix.
   */
  public static boolean canPrefixKernelKey(String prefix) {
    Objects.requireNonNull(prefix, "prefix");
    int colon = prefix.indexOf(':');
    if (colon < 0) {
      // only namespace characters so far (or none): some longer namespace continues it
      return prefix.isEmpty() || isValidNamespace(prefix);
    }
    String namespace = prefix.substring(0, colon);
    if (!isValidNamespace(namespace) || namespace.equals(RESERVED_NAMESPACE)) {
      return false;
    }
    String rest = prefix.substring(colon);
    if (rest.length() <= LOCK_INFIX.length()) {
      return LOCK_INFIX.startsWith(rest);
    }
    if (!rest.startsWith(LOCK_INFIX)) {
      return false;
    }
    return rest.substring(LOCK_INFIX.length())
        .chars()
        .noneMatch(
            c ->
                Character.isWhitespace(c) || Character.isSpaceChar(c) || Character.isISOControl(c));
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
