package io.hostloom.zookeeper;

import io.hostloom.locking.spi.LosslessUtf8;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Lock keys as znode names. A key of 1 to 200 characters from {@code [A-Za-z0-9_:-]} is its own
 * name (readable in {@code zkCli}); any other key is {@code #} + the lowercase hex SHA-256 of its
 * WTF-8 bytes. Only hashed names start with {@code #}, so the two forms cannot collide, and no name
 * is {@code .}, {@code ..} or holds {@code /}, which ZooKeeper refuses.
 */
final class NodeNames {
  static final int MAX_PLAIN_LENGTH = 200;

  private NodeNames() {}

  static String of(String key) {
    return isPlain(key) ? key : "#" + sha256(key);
  }

  private static boolean isPlain(String key) {
    if (key.isEmpty() || key.length() > MAX_PLAIN_LENGTH) {
      return false;
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '_'
              || c == ':'
              || c == '-';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private static String sha256(String key) {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(LosslessUtf8.encode(key)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
