package io.hostloom.quarkus.internal;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockEventListener;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockRetrySpec;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.support.StartupWarmUp;
import io.hostloom.locking.time.LockClock;
import io.hostloom.quarkus.HostLoomConfig;
import io.quarkus.arc.All;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.configuration.DurationConverter;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Owns what the extension builds: the backend {@code hostloom.backend} names and the {@link
 * DistributedLock} over it. Built at start-up ({@link Startup}), so a bad setting or a missing
 * backend module fails start-up with one {@link HostLoomConfigurationException} listing every
 * problem; then warms the backend up ({@code hostloom.warm-up.*}, logged and ignored when it
 * fails); closed at shutdown, the lock first and then the backend (the lock never closes a backend
 * it was given).
 */
@Startup
@Singleton
public class HostLoomRuntime {
  private final LockingOptions options;
  private final Optional<LockBackend> backend;
  private final DistributedLock lock;
  private final List<LockBackend> warmedUp;

  HostLoomRuntime(
      HostLoomConfig config,
      LockClock clock,
      @All List<LockEventListener> listeners,
      Instance<DataSource> dataSource) {
    this.options = options(config);
    if (options.enabled()) {
      String name =
          config
              .backend()
              .filter(s -> !s.isBlank())
              .orElseThrow(
                  () ->
                      HostLoomConfigurationException.of(
                          List.of(
                              "hostloom.backend is not set: choose where locks live with"
                                  + " hostloom.backend="
                                  + Backends.choices()
                                  + " (memory for a single instance or tests), or set"
                                  + " hostloom.locking.enabled=false")));
      this.backend =
          Optional.of(Backends.create(name, config, clock, () -> dataSource(dataSource, name)));
    } else {
      this.backend = Optional.empty();
    }
    this.lock =
        DistributedLock.builder(options, backend.orElse(null))
            .clock(clock)
            .listener(LockEventListener.composite(listeners))
            .build();
    this.warmedUp =
        config.warmUp().enabled() && backend.isPresent()
            ? List.copyOf(StartupWarmUp.warmUp(List.of(backend.get()), config.warmUp().timeout()))
            : List.of();
  }

  private static Object dataSource(Instance<DataSource> dataSource, String backend) {
    if (!dataSource.isResolvable()) {
      throw HostLoomConfigurationException.of(
          List.of(
              "hostloom.backend="
                  + backend
                  + " needs the application's default DataSource (add quarkus-agroal and a JDBC"
                  + " driver extension, and set quarkus.datasource.*)"));
    }
    return dataSource.get();
  }

  /**
   * {@code hostloom.locking.*} as the kernel's options, every problem listed at once ({@code
   * hostloom.warm-up.timeout}'s too).
   */
  static LockingOptions options(HostLoomConfig config) {
    HostLoomConfig.Locking l = config.locking();
    List<String> problems = new ArrayList<>();
    LockRetryPolicy retry = LockRetryPolicy.defaultPolicy();
    try {
      retry = LockRetrySpec.parse(l.retry(), DurationConverter::parseDuration);
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
    }
    LockingOptions.Builder b = LockingOptions.builder().retry(retry);
    l.namespace().ifPresent(b::namespace);
    l.enabled().ifPresent(b::enabled);
    l.defaultLease().ifPresent(b::defaultLease);
    l.maxLease().ifPresent(b::maxLease);
    l.maxHold().ifPresent(b::maxHold);
    l.strictMaxHold().ifPresent(b::strictMaxHold);
    l.wakeOnRelease().ifPresent(b::wakeOnRelease);
    l.autoExtend().ifPresent(b::autoExtend);
    l.detectReentrancy().ifPresent(b::detectReentrancy);
    l.maxKeyLength().ifPresent(b::maxKeyLength);
    LockingOptions options = b.build();
    problems.addAll(options.validate());
    problems.addAll(StartupWarmUp.problems(config.warmUp().timeout()));
    if (!problems.isEmpty()) {
      throw HostLoomConfigurationException.of(problems);
    }
    return options;
  }

  public DistributedLock lock() {
    return lock;
  }

  /** The backend; empty with {@code hostloom.locking.enabled=false}. */
  public Optional<LockBackend> backend() {
    return backend;
  }

  /** The backends whose start-up warm-up finished in time ({@code hostloom.warm-up.*}). */
  public List<LockBackend> warmedUp() {
    return warmedUp;
  }

  public LockingOptions options() {
    return options;
  }

  @PreDestroy
  void close() {
    lock.close();
    backend.ifPresent(
        b -> {
          if (b instanceof AutoCloseable c) {
            try {
              c.close();
            } catch (Exception e) {
              // shutdown goes on; the backend logs its own failures
            }
          }
        });
  }
}
