package io.hostloom.springboot.scheduling;

import io.hostloom.locking.LockingOptions;
import io.hostloom.scheduling.ScheduleOptions;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.Environment;

/**
 * Turns an {@link ExclusiveSchedule} into {@link ScheduleOptions}: placeholders resolved, duration
 * strings parsed, defaults applied, and checked against {@code hostloom.locking.max-lease}. Every
 * error names the method.
 */
final class ExclusiveScheduleResolver {
  private final Environment environment;
  private final ExclusiveScheduleProperties defaults;

  ExclusiveScheduleResolver(Environment environment) {
    this.environment = environment;
    this.defaults =
        Binder.get(environment)
            .bind("hostloom.scheduling", ExclusiveScheduleProperties.class)
            .orElseGet(ExclusiveScheduleProperties::new);
  }

  boolean enabled() {
    return defaults.isEnabled();
  }

  /** An annotation's options and its leader role (empty: a lock claim per occurrence). */
  record Resolved(String where, ScheduleOptions options, String leaderRole) {}

  /**
   * @throws ExclusiveScheduleConfigurationException naming the method when the annotation is
   *     misconfigured
   */
  Resolved resolve(Method method, ExclusiveSchedule a) {
    String where = where(method);
    try {
      if (method.getReturnType() != void.class) {
        throw new IllegalArgumentException("the method must return void");
      }
      String name = resolve(a.name());
      if (name.isBlank()) {
        throw new IllegalArgumentException("the schedule name is empty");
      }
      ScheduleOptions.Builder b =
          ScheduleOptions.builder(name)
              .lease(duration(a.lease(), defaults.getDefaultLease()))
              .minimumHold(duration(a.minimumHold(), defaults.getDefaultMinimumHold()))
              .autoExtend(Boolean.parseBoolean(resolve(a.autoExtend())))
              .onLost(a.onLost());
      optional(a.maxWait(), b::maxWait);
      optional(a.maxLateness(), b::maxLateness);
      optional(a.timeout(), b::timeout);
      LockingOptions lock = lockingOptions();
      b.maxHold(a.maxHold().isEmpty() ? lock.maxHold() : duration(a.maxHold(), null));
      ScheduleOptions options = b.build();
      List<String> problems = options.validateFor(lock);
      if (!problems.isEmpty()) {
        throw new IllegalArgumentException(String.join("; ", problems));
      }
      return new Resolved(where, options, resolve(a.leaderRole()));
    } catch (RuntimeException e) {
      throw misconfigured(where, e.getMessage(), e);
    }
  }

  static String where(Method method) {
    return method.getDeclaringClass().getName() + "." + method.getName();
  }

  static ExclusiveScheduleConfigurationException misconfigured(
      String where, String problem, Throwable cause) {
    return new ExclusiveScheduleConfigurationException(where, problem, cause);
  }

  private LockingOptions lockingOptions() {
    Binder binder = Binder.get(environment);
    return LockingOptions.builder()
        .maxLease(
            binder
                .bind(LockingOptions.KEY_MAX_LEASE, Duration.class)
                .orElse(LockingOptions.DEFAULT_MAX_LEASE))
        .maxHold(
            binder
                .bind(LockingOptions.KEY_MAX_HOLD, Duration.class)
                .orElse(LockingOptions.DEFAULT_MAX_HOLD))
        .build();
  }

  private String resolve(String value) {
    return environment.resolveRequiredPlaceholders(value).trim();
  }

  private Duration duration(String value, Duration fallback) {
    String v = resolve(value);
    return v.isEmpty() ? fallback : DurationStyle.detectAndParse(v);
  }

  private void optional(String value, Consumer<Duration> set) {
    String v = resolve(value);
    if (!v.isEmpty()) {
      set.accept(DurationStyle.detectAndParse(v));
    }
  }
}
