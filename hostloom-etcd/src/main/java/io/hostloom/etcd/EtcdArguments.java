package io.hostloom.etcd;

import java.time.Duration;
import java.util.Objects;

/** The SPI's argument rules, checked before anything is sent. */
final class EtcdArguments {
  private EtcdArguments() {}

  static void key(String key) {
    Objects.requireNonNull(key, "key");
    if (key.isEmpty()) {
      throw new IllegalArgumentException("key must not be empty");
    }
  }

  static void owner(String owner, String name) {
    Objects.requireNonNull(owner, name);
    if (owner.isEmpty()) {
      throw new IllegalArgumentException(name + " must not be empty");
    }
  }

  static void keyOwner(String key, String owner) {
    key(key);
    owner(owner, "owner");
  }

  static void lease(Duration lease) {
    positive(lease, "lease");
  }

  static Duration positive(Duration value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive but was " + value);
    }
    return value;
  }
}
