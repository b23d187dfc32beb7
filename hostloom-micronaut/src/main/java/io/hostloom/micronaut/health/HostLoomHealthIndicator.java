package io.hostloom.micronaut.health;

import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.BackendHealthProbe;
import io.hostloom.locking.spi.LockBackend;
import io.micronaut.context.annotation.Requires;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.AbstractHealthIndicator;
import io.micronaut.management.health.indicator.HealthIndicator;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code hostloom} health indicator (micronaut-management's {@code /health}): UP or DOWN as the
 * lock backend's {@link BackendHealthProbe} answers, with details {@code backend} (its name) and
 * {@code probe} (the probe's description). A backend without a probe (the in-memory one) is UP,
 * saying so. Present when micronaut-management is on the classpath and a {@link LockBackend} bean
 * exists.
 *
 * <p>Runs on micronaut-management's blocking executor and waits at most {@link #TIMEOUT} (probes
 * bound themselves by their health timeout; this is a backstop): a probe that fails or does not
 * answer in time is DOWN, and so is an interrupted wait (the flag is restored), as the kernel's
 * {@link BackendHealth#check} decides for every integration.
 */
@Singleton
@Requires(classes = HealthIndicator.class)
@Requires(beans = LockBackend.class)
public class HostLoomHealthIndicator extends AbstractHealthIndicator<Map<String, Object>> {
  /** The indicator's name in the health report. */
  public static final String NAME = "hostloom";

  /** The longest wait for a probe's answer. */
  public static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final LockBackend backend;

  public HostLoomHealthIndicator(LockBackend backend) {
    this.backend = backend;
  }

  @Override
  protected String getName() {
    return NAME;
  }

  @Override
  protected Map<String, Object> getHealthInformation() {
    BackendHealth h = BackendHealth.check(backend, TIMEOUT);
    healthStatus = h.healthy() ? HealthStatus.UP : HealthStatus.DOWN;
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("backend", backend.name());
    details.put("probe", h.description());
    return details;
  }
}
