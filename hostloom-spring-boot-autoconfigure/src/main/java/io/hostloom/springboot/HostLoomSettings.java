package io.hostloom.springboot;

import io.hostloom.locking.LockKey;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.springboot.backend.BackendDefinition;
import io.hostloom.springboot.backend.BackendProperty;
import io.hostloom.wopi.WopiLockComparer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;
import org.springframework.boot.context.properties.bind.Binder;

/**
 * The {@code hostloom.*} settings after validation: built once at start-up, it checks every rule
 * and throws one {@link HostLoomConfigurationException} listing every problem. Every bean of the
 * starter is built from it, so no bean ever sees an invalid value.
 */
public final class HostLoomSettings {
  /** The bean name every backend auto-configuration gives its {@code LockBackend}. */
  public static final String BACKEND_BEAN = "hostloomLockBackend";

  /** The bean name of the starter's own {@code WopiLockComparer}. */
  public static final String COMPARER_BEAN = "hostloomWopiLockComparer";

  /**
   * What the application context looks like, for the rules that depend on it.
   *
   * @param backends every backend definition on the classpath ({@code META-INF/spring.factories}),
   *     in order
   * @param userBackends names of {@code LockBackend} beans the application defines itself
   * @param userComparer whether the application defines a {@code WopiLockComparer} bean
   * @param beanOfType whether a bean of the named type exists (by class name)
   * @param classPresent whether a class is on the classpath
   */
  public record Context(
      List<BackendDefinition> backends,
      List<String> userBackends,
      boolean userComparer,
      Predicate<String> beanOfType,
      Predicate<String> classPresent) {
    public Context {
      backends = List.copyOf(backends);
      userBackends = List.copyOf(userBackends);
    }

    String choices() {
      return String.join(", ", backends.stream().map(BackendDefinition::name).toList());
    }

    Optional<BackendDefinition> backend(String name) {
      return backends.stream().filter(b -> b.name().equals(name)).findFirst();
    }
  }

  private final Optional<BackendDefinition> backend;
  private final LockingOptions lockingOptions;
  private final Optional<WopiLockComparer> comparer;
  private final Duration wopiExpiry;
  private final String wopiKeyPrefix;
  private final HostLoomProperties properties;

  private HostLoomSettings(
      Optional<BackendDefinition> backend,
      LockingOptions lockingOptions,
      Optional<WopiLockComparer> comparer,
      String wopiKeyPrefix,
      HostLoomProperties properties) {
    this.backend = backend;
    this.lockingOptions = lockingOptions;
    this.comparer = comparer;
    this.wopiExpiry = properties.getWopi().getLockExpiry();
    this.wopiKeyPrefix = wopiKeyPrefix;
    this.properties = properties;
  }

  /**
   * Validates {@code p} and the chosen backend's settings (bound from {@code binder}) in {@code
   * context}.
   *
   * @throws HostLoomConfigurationException listing every problem
   */
  public static HostLoomSettings validate(HostLoomProperties p, Binder binder, Context context) {
    List<String> problems = new ArrayList<>();
    HostLoomProperties.Locking l = p.getLocking();

    Optional<BackendDefinition> backend = Optional.empty();
    BackendProperty choice = new BackendProperty(p.getBackend());
    if (choice.value().isEmpty()) {
      if (l.isEnabled() && context.userBackends().isEmpty()) {
        problems.add(
            BackendProperty.NAME
                + " is not set: choose where locks live with "
                + BackendProperty.NAME
                + "="
                + context.choices()
                + " (memory for a single instance or tests), define a LockBackend bean, or"
                + " set hostloom.locking.enabled=false");
      }
    } else {
      backend = choice.name().flatMap(context::backend);
      if (backend.isEmpty()) {
        problems.add(
            BackendProperty.NAME
                + " must be one of "
                + context.choices()
                + " but was '"
                + choice.value()
                + "'");
      }
    }
    if (context.userBackends().size() > 1) {
      problems.add(
          "the application defines "
              + context.userBackends().size()
              + " LockBackend beans "
              + context.userBackends()
              + ": define exactly one");
    }
    boolean backendInUse = backend.isPresent() && context.userBackends().isEmpty();
    if (backendInUse) {
      backendProblems(backend.get(), binder, context, problems);
    }

    LockRetryPolicy retry = null;
    try {
      retry = RetrySpec.parse(l.getRetry());
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
    }
    LockingOptions options =
        LockingOptions.builder()
            .namespace(l.getNamespace())
            .enabled(l.isEnabled())
            .defaultLease(l.getDefaultLease())
            .maxLease(l.getMaxLease())
            .maxHold(l.getMaxHold())
            .strictMaxHold(l.isStrictMaxHold())
            .retry(retry == null ? LockRetryPolicy.defaultPolicy() : retry)
            .autoExtend(l.isAutoExtend())
            .detectReentrancy(l.isDetectReentrancy())
            .maxKeyLength(l.getMaxKeyLength())
            .wakeOnRelease(l.isWakeOnRelease())
            .build();
    problems.addAll(options.validate());

    Optional<WopiLockComparer> comparer = Optional.empty();
    if (!context.userComparer()) {
      String c = p.getWopi().getLockComparer();
      String normalised = c == null ? "" : c.strip().toLowerCase(Locale.ROOT);
      if (normalised.equals("ordinal")) {
        comparer = Optional.of(WopiLockComparer.ordinal());
      } else if (normalised.equals("json-shaped")) {
        comparer = Optional.of(WopiLockComparer.jsonShaped());
      } else {
        problems.add(
            "hostloom.wopi.lock-comparer must be ordinal or json-shaped (or define a"
                + " WopiLockComparer bean) but was '"
                + c
                + "'");
      }
    }
    Duration expiry = p.getWopi().getLockExpiry();
    if (expiry == null || expiry.isNegative() || expiry.isZero()) {
      problems.add("hostloom.wopi.lock-expiry must be positive but was " + expiry);
    }
    String prefix = p.getWopi().getKeyPrefix();
    if (prefix == null || prefix.length() > 1024) {
      problems.add(
          "hostloom.wopi.key-prefix must be at most 1024 characters but was "
              + (prefix == null ? "null" : prefix.length() + " characters"));
    } else if (!prefix.isEmpty() && LockKey.canPrefixKernelKey(prefix)) {
      problems.add(
          "hostloom.wopi.key-prefix must not be the start of a kernel lock key"
              + " <namespace>:lock:<key> (a file id could name a kernel lock) but was '"
              + prefix
              + "'");
    }

    if (!problems.isEmpty()) {
      throw HostLoomConfigurationException.of(problems);
    }
    // a backend may name WOPI locks its own way (Azure: the .NET WopiHost blob name)
    // (also with a LockBackend bean of the application's own: hostloom.backend still says where)
    String wopiKeyPrefix =
        backend.isPresent()
            ? backend.get().wopiKeyPrefix(binder, p.getWopi().getKeyPrefix())
            : p.getWopi().getKeyPrefix();
    return new HostLoomSettings(backend, options, comparer, wopiKeyPrefix, p);
  }

  private static void backendProblems(
      BackendDefinition backend, Binder binder, Context context, List<String> problems) {
    Optional<String> backendClass = backend.backendClass();
    if (backendClass.isPresent() && !context.classPresent().test(backendClass.get())) {
      problems.add(
          "hostloom.backend="
              + backend.name()
              + " needs "
              + backend.artifact()
              + " on the classpath (add it as a dependency)");
      return;
    }
    backend.validate(binder, new BackendDefinition.Context(context.beanOfType()), problems);
  }

  /** The chosen backend; empty when none is set (locking disabled or a user LockBackend bean). */
  public Optional<BackendDefinition> backend() {
    return backend;
  }

  /** The lock options, valid. */
  public LockingOptions lockingOptions() {
    return lockingOptions;
  }

  /** The configured comparer; empty when the application defines its own bean. */
  public Optional<WopiLockComparer> comparer() {
    return comparer;
  }

  public Duration wopiExpiry() {
    return wopiExpiry;
  }

  /**
   * The WOPI key prefix: {@code hostloom.wopi.key-prefix}, or empty with {@code
   * hostloom.backend=azure} and the .NET layout (the default there).
   */
  public String wopiKeyPrefix() {
    return wopiKeyPrefix;
  }

  /** The raw (validated) backend-neutral properties. */
  public HostLoomProperties properties() {
    return properties;
  }
}
