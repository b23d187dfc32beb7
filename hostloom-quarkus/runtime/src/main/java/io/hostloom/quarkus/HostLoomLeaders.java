package io.hostloom.quarkus;

import io.hostloom.leadership.LeaderElection;
import io.hostloom.leadership.LeaderElector;
import io.hostloom.leadership.LeadershipOptions;
import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.time.LockClock;
import io.hostloom.quarkus.internal.HostLoomConfigurationException;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;

/**
 * One leader elector per role under {@code hostloom.leadership.roles.<role>.*}, on the extension's
 * {@link DistributedLock} (a bean only when io.hostloom:hostloom-leadership is on the classpath).
 * The electors start when the application has started and stop (releasing every lease, so
 * leadership hands over at once) when shutdown begins, before the lock is closed.
 */
@Singleton
public class HostLoomLeaders {
  static final String PREFIX = "hostloom.leadership.roles.";

  private final Map<String, LeaderElector> electors;

  HostLoomLeaders(HostLoomConfig config, DistributedLock lock, LockClock clock) {
    Map<String, LeaderElector> built = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    config
        .leadership()
        .roles()
        .forEach(
            (role, r) -> {
              if (!r.enabled()) {
                return;
              }
              LeadershipOptions.Builder b = LeadershipOptions.builder();
              r.lease().ifPresent(b::lease);
              r.renewInterval().ifPresent(b::renewInterval);
              r.retryInterval().ifPresent(b::retryInterval);
              r.jitter().ifPresent(b::jitter);
              List<String> bad = b.validate(PREFIX + role + ".");
              if (bad.isEmpty()) {
                built.put(
                    role,
                    LeaderElector.builder(lock, role).options(b.build()).clock(clock).build());
              } else {
                problems.addAll(bad);
              }
            });
    if (!problems.isEmpty()) {
      throw HostLoomConfigurationException.of(problems);
    }
    this.electors = Collections.unmodifiableMap(built);
  }

  /**
   * The election of {@code role}.
   *
   * @throws NoSuchElementException when no elector is configured for it
   */
  public LeaderElection get(String role) {
    LeaderElector e = electors.get(role);
    if (e == null) {
      throw new NoSuchElementException(
          "no leader elector for role '" + role + "'; configured: " + electors.keySet());
    }
    return e;
  }

  /** Every elector, by role. */
  public Map<String, LeaderElector> all() {
    return electors;
  }

  void start(@Observes StartupEvent started) {
    electors.values().forEach(LeaderElector::start);
  }

  void stop(@Observes ShutdownEvent stopping) {
    List<CompletableFuture<Void>> released = new ArrayList<>();
    electors.values().forEach(e -> released.add(e.stopAsync()));
    CompletableFuture.allOf(released.toArray(CompletableFuture[]::new)).join();
  }
}
