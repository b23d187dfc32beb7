package io.hostloom.locking;

import java.util.Objects;

/**
 * Base of the kernel's unchecked exceptions: each one names the consumer key (never the owner
 * token) and the state that caused it.
 */
public abstract class LockException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String key;

  LockException(String key, String message, Throwable cause) {
    super(message, cause);
    this.key = Objects.requireNonNull(key, "key");
  }

  /** The consumer key, without the namespace prefix. */
  public String key() {
    return key;
  }

  static String ms(long nanos) {
    return (nanos / 1_000_000) + " ms";
  }
}
