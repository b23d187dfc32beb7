package io.hostloom.quarkus.internal;

import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.BackendHealthProbe;
import io.hostloom.locking.spi.LockBackend;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness {@code hostloom} (registered only with quarkus-smallrye-health): the backend's {@link
 * BackendHealthProbe} answer, UP without a probe, UP with {@code locking=disabled} when locking is
 * off. Never throws; waits at most {@link #TIMEOUT} (probes bound themselves, this is a backstop).
 */
@Readiness
@Singleton
public class HostLoomReadinessCheck implements HealthCheck {
  static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final HostLoomRuntime runtime;

  HostLoomReadinessCheck(HostLoomRuntime runtime) {
    this.runtime = runtime;
  }

  @Override
  public HealthCheckResponse call() {
    HealthCheckResponseBuilder r = HealthCheckResponse.named("hostloom");
    Optional<LockBackend> backend = runtime.backend();
    if (backend.isEmpty()) {
      return r.up().withData("locking", "disabled").build();
    }
    LockBackend b = backend.get();
    r.withData("backend", b.name());
    if (!(b instanceof BackendHealthProbe probe)) {
      return r.up().withData("probe", "the backend has no health probe; assumed reachable").build();
    }
    try {
      BackendHealth h = probe.checkHealth().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      return r.status(h.healthy()).withData("probe", h.description()).build();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return r.down().withData("probe", "interrupted").build();
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      return r.down().withData("probe", "no answer: " + e.getClass().getSimpleName()).build();
    }
  }
}
