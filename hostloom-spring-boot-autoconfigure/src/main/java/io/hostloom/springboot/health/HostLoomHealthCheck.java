package io.hostloom.springboot.health;

import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.LockBackend;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Readiness of the lock backend, without Spring Boot's health types (they moved between Boot 3 and
 * Boot 4, so each starter adapts this result to its own {@code HealthIndicator}). Mirrors the
 * backend's {@code BackendHealthProbe} (through {@link BackendHealth#check}) when it has one; UP
 * with an explanation when it has none; UP with "disabled" when locking is disabled
 * (single-instance mode needs no backend).
 *
 * <p>{@link #check()} never throws and blocks at most {@link #TIMEOUT}: a probe that fails or does
 * not answer in time is DOWN; an interrupt is DOWN with the interrupt flag restored.
 */
public final class HostLoomHealthCheck {
  /** The longest wait for a probe's answer (probes bound themselves; this is a backstop). */
  public static final Duration TIMEOUT = Duration.ofSeconds(5);

  /**
   * One answer.
   *
   * @param up whether the backend is ready
   * @param details ordered details ({@code backend}, {@code probe}, {@code locking})
   */
  public record Result(boolean up, Map<String, Object> details) {
    public Result {
      details = Map.copyOf(details);
    }
  }

  private final boolean enabled;
  private final Optional<LockBackend> backend;

  /**
   * @param enabled {@code hostloom.locking.enabled}
   * @param backend the lock backend, when there is one
   */
  public HostLoomHealthCheck(boolean enabled, Optional<LockBackend> backend) {
    this.enabled = enabled;
    this.backend = backend;
  }

  /** Asks the backend; see the class comment for what each state means. */
  public Result check() {
    Map<String, Object> details = new LinkedHashMap<>();
    if (!enabled) {
      details.put("locking", "disabled");
    }
    if (backend.isEmpty()) {
      details.put("backend", "none");
      return new Result(!enabled, details);
    }
    LockBackend b = backend.get();
    details.put("backend", b.name());
    BackendHealth h = BackendHealth.check(b, TIMEOUT);
    details.put("probe", h.description());
    return new Result(h.healthy(), details);
  }
}
