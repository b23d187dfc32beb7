package io.hostloom.reliability;

import java.nio.file.Path;

/**
 * A resource that the lock protects and that checks fencing tokens itself: a write carrying a token
 * lower than one it has already accepted is rejected (the same holder may write again). This is
 * what keeps a stale holder (paused, partitioned, its lease taken over) from damaging data; the
 * lock alone cannot.
 *
 * <p>Implementations are shared between processes: every worker and the test see the same state.
 */
interface FencedResource extends AutoCloseable {

  /**
   * Writes {@code value} to {@code key} unless a larger {@code token} was accepted for {@code key}
   * before.
   *
   * @return {@code true} when written; {@code false} when rejected as stale
   */
  boolean write(String key, long token, long value);

  /** The highest token accepted for {@code key}, or {@code 0}. */
  long fence(String key);

  /** Writes accepted for {@code key} so far. */
  long accepted(String key);

  @Override
  void close();

  /**
   * Opens the resource named by {@code address}: {@code file:<directory>} (a fenced record per key
   * in files, updated under an OS file lock) or a PostgreSQL JDBC URL (a conditional {@code
   * UPDATE}).
   */
  static FencedResource open(String address) {
    if (address.startsWith("file:")) {
      return new FileFencedResource(Path.of(address.substring("file:".length())));
    }
    if (address.startsWith("jdbc:postgresql:")) {
      return new PostgresFencedResource(address);
    }
    throw new IllegalArgumentException("unknown fenced resource " + address);
  }
}
