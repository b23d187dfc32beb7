package io.hostloom.springboot.backend;

import java.util.Locale;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Binder;

/**
 * The backend {@code hostloom.backend} chooses. A blank value counts as not set, so {@code
 * --hostloom.backend=} clears a profile's value. The start-up validation and {@link
 * ConditionalOnBackend} both read the choice here, so they never disagree.
 *
 * @param backend {@code hostloom.backend} as bound, or null
 */
public record BackendProperty(String backend) {
  /** The property that chooses the backend. */
  public static final String NAME = "hostloom.backend";

  /** The property as {@code binder} binds it. */
  public static BackendProperty of(Binder binder) {
    return new BackendProperty(binder.bind(NAME, String.class).orElse(null));
  }

  /** The chosen value as written (stripped); empty when it is not set. */
  public String value() {
    return backend == null ? "" : backend.strip();
  }

  /** The chosen backend's name, lower case; empty when the property is not set. */
  public Optional<String> name() {
    String v = value().toLowerCase(Locale.ROOT);
    return v.isEmpty() ? Optional.empty() : Optional.of(v);
  }
}
