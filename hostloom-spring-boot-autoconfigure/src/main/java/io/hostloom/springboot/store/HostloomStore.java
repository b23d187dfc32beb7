package io.hostloom.springboot.store;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.springframework.boot.context.properties.bind.Binder;

/**
 * One value of {@code hostloom.store}: its name, the module it needs and the rules of its own
 * settings. The start-up validation asks every store found in {@code META-INF/spring.factories}
 * (key {@code io.hostloom.springboot.store.HostloomStore}), so adding a store is a new package
 * (this definition, its properties class and its auto-configuration) plus one line there and one in
 * {@code AutoConfiguration.imports}; no central list of stores exists.
 *
 * <p>Implementations need a public no-argument constructor, must not load their backend's classes
 * (the module may be missing; name it in {@link #backendClass()} instead), and must not throw from
 * {@link #validate}: every problem goes to the list, so one start-up failure names them all.
 */
public interface HostloomStore {

  /** The {@code hostloom.store} value, lower case, e.g. {@code redis}. */
  String name();

  /**
   * The class whose presence shows the store's module is on the classpath, e.g. {@code
   * io.hostloom.redis.RedisLockBackend}; empty for a store of the kernel.
   */
  Optional<String> backendClass();

  /**
   * The dependency to add when {@link #backendClass()} is missing, e.g. {@code
   * io.hostloom:hostloom-redis}.
   */
  String artifact();

  /**
   * Adds one sentence per problem with this store's settings to {@code problems}, each naming its
   * property and the bad value. Called only when this store is chosen, its module is present and
   * the application defines no {@code LockBackend} bean of its own.
   */
  void validate(Binder binder, Context context, List<String> problems);

  /**
   * The key prefix of WOPI locks on this store: {@code configured} ({@code
   * hostloom.wopi.key-prefix}) unless the store names WOPI locks its own way, as Azure does for the
   * .NET WopiHost layout.
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
