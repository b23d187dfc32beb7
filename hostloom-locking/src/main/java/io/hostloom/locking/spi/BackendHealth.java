package io.hostloom.locking.spi;

import java.util.Objects;

/**
 * A health probe's answer. The description never contains endpoints with credentials, owner tokens
 * or keys.
 */
public record BackendHealth(boolean healthy, String description) {
  public BackendHealth {
    Objects.requireNonNull(description, "description");
  }

  public static BackendHealth healthy(String description) {
    return new BackendHealth(true, description);
  }

  public static BackendHealth unhealthy(String description) {
    return new BackendHealth(false, description);
  }
}
