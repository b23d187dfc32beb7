package io.hostloom.micronaut.backend;

import io.micronaut.context.exceptions.ConfigurationException;
import java.util.Optional;

/** A backend setting without a default: its value, or a failure naming it and an example. */
final class RequiredSetting {
  private RequiredSetting() {}

  /**
   * {@code value} stripped.
   *
   * @throws ConfigurationException when it is absent or blank
   */
  static String of(Optional<String> value, String key, String backend, String example) {
    return value
        .map(String::strip)
        .filter(v -> !v.isEmpty())
        .orElseThrow(() -> missing(key, backend, example));
  }

  static ConfigurationException missing(String key, String backend, String example) {
    return new ConfigurationException(
        key + " is required with hostloom.backend=" + backend + ", e.g. " + example);
  }
}
