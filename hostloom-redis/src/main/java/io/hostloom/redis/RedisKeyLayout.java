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
 * <p>A native semaphore ({@link RedisLockBackend#permitView}) of key {@code app:semaphore:pool}
 * keeps {@code hl:{app:semaphore:pool}:holders} (sorted set) and {@code :permits} (hash) besides
 * the lock's {@code :fence}, {@code :w} and {@code :released} names; semaphore keys never meet lock
 * keys, whose namespace segment is {@code :lock:}. A native reader-writer lock ({@link
 * RedisLockBackend#readWriteViews}) of key {@code app:rwlock:doc} keeps {@code
 * hl:{app:rwlock:doc}:readers} (sorted set) and {@code :rw} (hash) besides the same three names.
 *
 * <p>Waiters listen to all release channels of a prefix with one pattern subscription ({@link
 * #releasePattern()}).
 *
 * <p><b>Compatibility layouts</b> (opt-in, for a rolling migration; see {@code docs/migrating.md}):
 * {@link #shedLock} and {@link #springIntegration} put the lease on the very key ShedLock's {@code
 * RedisLockProvider} or Spring Integration's {@code RedisLockRegistry} uses for the same lock name,
 * so a node on the old library and a HostLoom node exclude each other. The lock name is the backend
 * key without a given prefix (with {@code HostLoomLockProvider}: {@code "<lock name>:" +
 * KEY_PREFIX}). HostLoom's own value format stays on that key (neither library parses the value: it
 * writes its own and compares it to what it wrote), and a value the old library wrote reads as a
 * live lease whose owner is that value, with data {@code ""} and fencing token 0. Counter, waiter
 * flag and channel get the suffixes {@code :hostloom-fence}, {@code :hostloom-w} and {@code
 * :hostloom-released}. These keys carry no hash tag, so the layouts are for standalone and Sentinel
 * servers only (the backend refuses a cluster source with them).
 *
 * <pre>
 *   ShedLock (keyPrefix "job-lock", environment "default"), lock name "report-job":
 *   lease   job-lock:default:report-job                  HostLoom's value, or ShedLock's "ADDED:..."
 *   fence   job-lock:default:report-job:hostloom-fence
 *   Spring Integration (registry key "jobs"), lock key "report-job":
 *   lease   jobs:report-job                              HostLoom's value, or the registry's clientId
 * </pre>
 */
public final class RedisKeyLayout {
  /** The longest key kept readable; longer keys are hashed. */
  public static final int MAX_READABLE_LENGTH = 200;

  /** The default prefix, {@value}. */
  public static final String DEFAULT_PREFIX = "hl:";

  private static final int MAX_PREFIX_LENGTH = 64;
  private static final HexFormat HEX = HexFormat.of();

  private static final String SHEDLOCK = "shedlock";
  private static final String SPRING_INTEGRATION = "spring-integration";

  private final String prefix;
  // compatibility layouts only (kind != null): the lease key is names + the key without stripped
  private final String kind;
  private final String names;
  private final String stripped;
  // suffixes of a lease key's own side keys (a compatibility layout's must not be old lock names)
  private final String fenceSuffix;
  private final String waitersSuffix;
  private final String releasedSuffix;

  private RedisKeyLayout(String prefix) {
    this(prefix, null, null, null);
  }

  private RedisKeyLayout(String prefix, String kind, String names, String stripped) {
    this.prefix = prefix;
    this.kind = kind;
    this.names = names;
    this.stripped = stripped;
    this.fenceSuffix = suffix(kind, ":fence");
    this.waitersSuffix = suffix(kind, ":w");
    this.releasedSuffix = suffix(kind, ":released");
  }

  /**
   * ShedLock's Redis keys, as {@code shedlock-provider-redis-spring} 7.x's {@code
   * RedisLockProvider} writes them: {@code <keyPrefix>:<environment>:<lock name>} (its defaults
   * {@code "job-lock"} and {@code "default"}), the lock name being the backend key without {@code
   * stripped}. See the class comment and the module README for what this layout cannot carry.
   *
   * @throws IllegalArgumentException when {@code keyPrefix} or {@code environment} is empty
   */
  public static RedisKeyLayout shedLock(String keyPrefix, String environment, String stripped) {
    nonEmpty("keyPrefix", keyPrefix);
    nonEmpty("environment", environment);
    Objects.requireNonNull(stripped, "stripped");
    return new RedisKeyLayout("", SHEDLOCK, keyPrefix + ":" + environment + ":", stripped);
  }

  /**
   * Spring Integration's {@code RedisLockRegistry} keys (7.0.x; also 6.x): {@code
   * <registryKey>:<lock key>}, the lock key being the backend key without {@code stripped} (with
   * {@code HostLoomLockRegistry} over {@code LockingOptions.of(name)}: {@code name + ":lock:"}).
   *
   * @throws IllegalArgumentException when {@code registryKey} is empty
   */
  public static RedisKeyLayout springIntegration(String registryKey, String stripped) {
    nonEmpty("registryKey", registryKey);
    Objects.requireNonNull(stripped, "stripped");
    return new RedisKeyLayout("", SPRING_INTEGRATION, registryKey + ":", stripped);
  }

  private static void nonEmpty(String what, String value) {
    Objects.requireNonNull(value, what);
    if (value.isEmpty()) {
      throw new IllegalArgumentException(what + " must not be empty");
    }
  }

  /** Whether this is a compatibility layout ({@link #shedLock}, {@link #springIntegration}). */
  public boolean compatible() {
    return kind != null;
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
    if (kind != null) {
      Objects.requireNonNull(key, "key");
      if (!key.startsWith(stripped) || key.length() == stripped.length()) {
        throw new IllegalArgumentException(
            "key must be \"" + stripped + "\" and a lock name but was \"" + key + "\"");
      }
      return names + key.substring(stripped.length());
    }
    return prefix + "{" + id(key) + "}";
  }

  /** The fencing counter of {@code key}, in the same cluster slot as its lease. */
  public String fenceKey(String key) {
    return fenceKeyOf(leaseKey(key));
  }

  /** {@link #fenceKey} from the lease key already derived for the same call. */
  String fenceKeyOf(String leaseKey) {
    return leaseKey + fenceSuffix;
  }

  // a compatibility layout's own keys must not be lock names of the old library
  private static String suffix(String kind, String own) {
    return kind == null ? own : ":hostloom-" + own.substring(1);
  }

  /**
   * The waiter flag of {@code key}: set by a refused acquire whose caller waits for a release, for
   * as long as its waits last; release and replace publish only while it exists. Same slot.
   */
  public String waitersKey(String key) {
    return waitersKeyOf(leaseKey(key));
  }

  /** {@link #waitersKey} from the lease key already derived for the same call. */
  String waitersKeyOf(String leaseKey) {
    return leaseKey + waitersSuffix;
  }

  /**
   * The holders of the native semaphore {@code key} (a sorted set: owner by expiry), written only
   * through {@link RedisLockBackend#permitView}; same slot as the key's other names. The semaphore
   * keeps its fencing counter, waiter flag and release channel under the lock's names for {@code
   * key}, and no lease string.
   */
  public String permitHoldersKey(String key) {
    return permitHoldersKeyOf(leaseKey(key));
  }

  String permitHoldersKeyOf(String leaseKey) {
    return leaseKey + ":holders";
  }

  /**
   * The entries of the native semaphore {@code key} (a hash: {@code o:<owner>} = token and data,
   * {@code n} = the permit count); same slot.
   */
  public String permitEntriesKey(String key) {
    return permitEntriesKeyOf(leaseKey(key));
  }

  String permitEntriesKeyOf(String leaseKey) {
    return leaseKey + ":permits";
  }

  /**
   * The readers of the native reader-writer lock {@code key} (a sorted set: owner by expiry),
   * written only through {@link RedisLockBackend#readWriteViews}; same slot as the key's other
   * names. The lock keeps its fencing counter, waiter flag and release channel under the lock's
   * names for {@code key}, and no lease string.
   */
  public String readWriteReadersKey(String key) {
    return readWriteReadersKeyOf(leaseKey(key));
  }

  String readWriteReadersKeyOf(String leaseKey) {
    return leaseKey + ":readers";
  }

  /**
   * The entries of the native reader-writer lock {@code key} (a hash: {@code r:<owner>} = a
   * reader's token and data, {@code wo wt wd ws we} = the writer's owner, token, data, state and
   * expiry); same slot.
   */
  public String readWriteEntriesKey(String key) {
    return readWriteEntriesKeyOf(leaseKey(key));
  }

  String readWriteEntriesKeyOf(String leaseKey) {
    return leaseKey + ":rw";
  }

  /** The channel a release or replace of {@code key} is published on. */
  public String releaseChannel(String key) {
    return leaseKey(key) + releasedSuffix;
  }

  /**
   * The {@code PSUBSCRIBE} pattern matching the release channel of every key under this prefix
   * (glob characters of the prefix escaped): {@code hl:{*}:released} for the default prefix.
   */
  public String releasePattern() {
    String fixed = kind == null ? prefix : names;
    StringBuilder sb = new StringBuilder(fixed.length() + 24);
    for (int i = 0; i < fixed.length(); i++) {
      char c = fixed.charAt(i);
      if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
        sb.append('\\');
      }
      sb.append(c);
    }
    return sb.append(kind == null ? "{*}:released" : "*:hostloom-released").toString();
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
    return kind == null
        ? "RedisKeyLayout[prefix=" + prefix + "]"
        : "RedisKeyLayout[" + kind + ", names=" + names + ", stripped=" + stripped + "]";
  }
}
