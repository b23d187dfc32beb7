package io.hostloom.springboot.backend;

import java.util.Locale;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Binder;

/**
 * The backend {@code hostloom.backend} chooses, read together with its deprecated old name {@code
 * hostloom.store}: {@code hostloom.backend} when it is set, {@code hostloom.store} only when it is
 * not, and a {@link #conflict()} when both are set to different backends. A blank value counts as
 * not set, so {@code --hostloom.backend=} clears a profile's value. The start-up validation and
 * {@link ConditionalOnBackend} both read the choice here, so they never disagree.
 *
 * @param backend {@code hostloom.backend} as bound, or null
 * @param store {@code hostloom.store} as bound, or null
 */
public record BackendProperty(String backend, String store) {
  /** The property that chooses the backend. */
  public static final String NAME = "hostloom.backend";

  /** The deprecated old name of {@link #NAME}, still read. */
  public static final String DEPRECATED_NAME = "hostloom.store";

  /** Both properties as {@code binder} binds them. */
  public static BackendProperty of(Binder binder) {
    return new BackendProperty(
        binder.bind(NAME, String.class).orElse(null),
        binder.bind(DEPRECATED_NAME, String.class).orElse(null));
  }

  /**
   * The chosen value as written (stripped): {@code hostloom.backend}'s, else {@code
   * hostloom.store}'s; empty when neither is set.
   */
  public String value() {
    return isSet(backend) ? backend.strip() : isSet(store) ? store.strip() : "";
  }

  /** The property {@link #value()} comes from, for messages. */
  public String property() {
    return !isSet(backend) && isSet(store) ? DEPRECATED_NAME : NAME;
  }

  /** The chosen backend's name, lower case; empty when neither property is set or they conflict. */
  public Optional<String> name() {
    String v = value().toLowerCase(Locale.ROOT);
    return v.isEmpty() || conflict().isPresent() ? Optional.empty() : Optional.of(v);
  }

  /** The start-up problem when both properties are set and name different backends. */
  public Optional<String> conflict() {
    if (!isSet(backend) || !isSet(store) || backend.strip().equalsIgnoreCase(store.strip())) {
      return Optional.empty();
    }
    return Optional.of(
        NAME
            + "="
            + backend.strip()
            + " and "
            + DEPRECATED_NAME
            + "="
            + store.strip()
            + " choose different backends: "
            + DEPRECATED_NAME
            + " is the deprecated old name of "
            + NAME
            + ", remove it");
  }

  /**
   * The one start-up warning while {@code hostloom.store} is in use; empty when it is not set or
   * when the two conflict (that fails start-up instead).
   */
  public Optional<String> deprecationWarning() {
    if (!isSet(store) || conflict().isPresent()) {
      return Optional.empty();
    }
    return Optional.of(
        isSet(backend)
            ? DEPRECATED_NAME + " is deprecated and repeats " + NAME + ": remove it"
            : DEPRECATED_NAME
                + " is deprecated: set "
                + NAME
                + "="
                + store.strip().toLowerCase(Locale.ROOT)
                + " instead (it is still read while "
                + NAME
                + " is not set)");
  }

  private static boolean isSet(String s) {
    return s != null && !s.isBlank();
  }
}
