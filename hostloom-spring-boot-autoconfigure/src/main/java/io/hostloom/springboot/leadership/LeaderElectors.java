package io.hostloom.springboot.leadership;

import io.hostloom.leadership.LeaderElection;
import io.hostloom.leadership.LeaderElector;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import org.springframework.context.SmartLifecycle;

/**
 * The starter's leader electors, one per configured role, started and stopped with the application
 * context. Stopping releases every lease (a graceful shutdown hands leadership over at once) and
 * runs early in the shutdown, before the lock is closed. Inject it and ask for a role:
 *
 * <pre>{@code
 * LeaderElection billing = electors.get("billing");
 * billing.leadership().ifPresent(term -> write(term.term()));
 * }</pre>
 */
public final class LeaderElectors implements SmartLifecycle {
  /** Starts late and stops early: leadership work begins when the context is up. */
  public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

  private final Map<String, LeaderElector> electors;
  private volatile boolean running;

  public LeaderElectors(Map<String, LeaderElector> electors) {
    this.electors = Collections.unmodifiableMap(new LinkedHashMap<>(electors));
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

  @Override
  public void start() {
    electors.values().forEach(LeaderElector::start);
    running = true;
  }

  @Override
  public void stop() {
    List<CompletableFuture<Void>> released = new ArrayList<>();
    electors.values().forEach(e -> released.add(e.stopAsync()));
    CompletableFuture.allOf(released.toArray(CompletableFuture[]::new)).join();
    running = false;
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }
}
