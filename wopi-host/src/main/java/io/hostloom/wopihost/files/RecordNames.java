package io.hostloom.wopihost.files;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** File names for host records keyed by arbitrary text (a user, a token subject). */
public final class RecordNames {
  private RecordNames() {}

  /** The hex SHA-256 of {@code key}: a safe, fixed-length file name for any text. */
  public static String of(String key) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}
