package io.hostloom.redis;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Maps a lock key (any non-empty string, as the kernel or the WOPI service passes it) to the Redis
 * names of its lease, its fencing counter, its waiter flag and its release channel.
 *
 * <p>Every name is {@code <prefix>{<id>}<suffix>}. The {@code {<id>}} part is a Redis Cluster hash
 * tag, so a key's lease and counter live in one slot (every script touches one slot) while
 * different keys spread over all slots. The id is the key itself when it is short and plain (1 to
 * {@value #MAX_READABLE_LENGTH} characters, printable ASCII without braces, not starting with
 * {@code #}), so {@code redis-cli} shows readable names; any other key becomes {@code #} followed
 * by the lowercase hex SHA-256 of its lossless WTF-8 bytes (see {@link Wtf8Codec}). The two forms
 * cannot collide: only hashed ids start with {@code #}.
 *
 * <pre>
 *   lease   hl:{app:lock:invoice-7}           string token|owner length|owner data, PX = lease
 *   fence   hl:{app:lock:invoice-7}:fence     string counter, PX = lease + fence retention
 *   waiters hl:{app:lock:invoice-7}:w         flag "someone waits", PX = the waiters' longest wait
 *   channel hl:{app:lock:invoice-7}:released  pub/sub channel for release notifications
 * </pre>
 *
 * <p>Waiters listen to all release channels of a prefix with one pattern subscription ({@link
 * #releasePattern()}).
 */
public final class RedisKeyLayout {
  /** The longest key kept readable; longer keys are hashed. */
  public static final int MAX_READABLE_LENGTH = 200;

  /** The default prefix, {@value}. */
  public static final String DEFAULT_PREFIX = "hl:";

  private static final int MAX_PREFIX_LENGTH = 64;
  private static final HexFormat HEX = HexFormat.of();

  private final String prefix;

  private RedisKeyLayout(String prefix) {
    this.prefix = prefix;
  }

  /**
   * A layout with the given prefix: up to 64 printable ASCII characters without braces (may be
   * empty).
   *
   * @throws IllegalArgumentException when the prefix breaks those rules
   */
  public static RedisKeyLayout withPrefix(String prefix) {
    Objects.requireNonNull(prefix, "prefix");
    if (prefix.length() > MAX_PREFIX_LENGTH) {
      throw new IllegalArgumentException(
          "key prefix must be at most " + MAX_PREFIX_LENGTH + " chars but was " + prefix.length());
    }
    for (int i = 0; i < prefix.length(); i++) {
      if (!plain(prefix.charAt(i))) {
        throw new IllegalArgumentException(
            "key prefix must be printable ASCII without braces but was \"" + prefix + "\"");
      }
    }
    return new RedisKeyLayout(prefix);
  }

  public String prefix() {
    return prefix;
  }

  /** The string that holds the lease record of {@code key} (token, owner, data). */
  public String leaseKey(String key) {
    return prefix + "{" + id(key) + "}";
  }

  /** The fencing counter of {@code key}, in the same cluster slot as its lease. */
  public String fenceKey(String key) {
    return leaseKey(key) + ":fence";
  }

  /**
   * The waiter flag of {@code key}: set by a refused acquire whose caller waits for a release, for
   * as long as its waits last; release and replace publish only while it exists. Same slot.
   */
  public String waitersKey(String key) {
    return leaseKey(key) + ":w";
  }

  /** The channel a release or replace of {@code key} is published on. */
  public String releaseChannel(String key) {
    return leaseKey(key) + ":released";
  }

  /**
   * The {@code PSUBSCRIBE} pattern matching the release channel of every key under this prefix
   * (glob characters of the prefix escaped): {@code hl:{*}:released} for the default prefix.
   */
  public String releasePattern() {
    StringBuilder sb = new StringBuilder(prefix.length() + 16);
    for (int i = 0; i < prefix.length(); i++) {
      char c = prefix.charAt(i);
      if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
        sb.append('\\');
      }
      sb.append(c);
    }
    return sb.append("{*}:released").toString();
  }

  /** The hash-tag content for {@code key}: the key itself when readable, else {@code #sha256}. */
  static String id(String key) {
    Objects.requireNonNull(key, "key");
    if (readable(key)) {
      return key;
    }
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      return "#" + HEX.formatHex(sha.digest(Wtf8Codec.encode(key)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  private static boolean readable(String key) {
    if (key.isEmpty() || key.length() > MAX_READABLE_LENGTH || key.charAt(0) == '#') {
      return false;
    }
    for (int i = 0; i < key.length(); i++) {
      if (!plain(key.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  // printable ASCII, no space, no braces (a brace would end or split the hash tag)
  private static boolean plain(char c) {
    return c > 0x20 && c < 0x7F && c != '{' && c != '}';
  }

  @Override
  public String toString() {
    return "RedisKeyLayout[prefix=" + prefix + "]";
  }
}
