package io.hostloom.springboot.backend;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.springframework.boot.context.properties.bind.Binder;

/**
 * The definition of one backend the starter can build: its {@code hostloom.backend} value, the
 * module it needs and the rules of its own settings. The start-up validation asks every definition
 * found in {@code META-INF/spring.factories} (key {@code
 * io.hostloom.springboot.backend.BackendDefinition}), so adding a backend is a new package (this
 * definition, its properties class and its auto-configuration guarded by {@link
 * ConditionalOnBackend}) plus one line there and one in {@code AutoConfiguration.imports}; no
 * central list of backends exists.
 *
 * <p>Implementations need a public no-argument constructor, must not load their backend's classes
 * (the module may be missing; name it in {@link #backendClass()} instead), and must not throw from
 * {@link #validate}: every problem goes to the list, so one start-up failure names them all.
 */
public interface BackendDefinition {

  /** The {@code hostloom.backend} value, lower case, e.g. {@code redis}. */
  String name();

  /**
   * The class whose presence shows the backend's module is on the classpath, e.g. {@code
   * io.hostloom.redis.RedisLockBackend}; empty for a backend of the kernel.
   */
  Optional<String> backendClass();

  /**
   * The dependency to add when {@link #backendClass()} is missing, e.g. {@code
   * io.hostloom:hostloom-redis}.
   */
  String artifact();

  /**
   * Adds one sentence per problem with this backend's settings to {@code problems}, each naming its
   * property and the bad value. Called only when this backend is chosen, its module is present and
   * the application defines no {@code LockBackend} bean of its own.
   */
  void validate(Binder binder, Context context, List<String> problems);

  /**
   * The key prefix of WOPI locks on this backend: {@code configured} ({@code
   * hostloom.wopi.key-prefix}) unless the backend names WOPI locks its own way, as Azure does for
   * the .NET WopiHost layout.
   */
  default String wopiKeyPrefix(Binder binder, String configured) {
    return configured;
  }

  /**
   * What the application context holds, for rules that depend on it.
   *
   * @param beanOfType whether a bean of the named type exists (by class name)
   */
  record Context(Predicate<String> beanOfType) {}

  /** Adds a problem unless {@code d} is positive. */
  static void requirePositive(String key, Duration d, List<String> problems) {
    if (d == null || d.isNegative() || d.isZero()) {
      problems.add(key + " must be positive but was " + d);
    }
  }

  /** Adds a problem unless {@code n} is positive. */
  static void requirePositive(String key, int n, List<String> problems) {
    if (n <= 0) {
      problems.add(key + " must be positive but was " + n);
    }
  }
}
