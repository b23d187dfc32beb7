package io.hostloom.quarkus.internal;

import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.BackendHealthProbe;
import io.hostloom.locking.spi.LockBackend;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness {@code hostloom} (registered only with quarkus-smallrye-health): the backend's {@link
 * BackendHealthProbe} answer through the kernel's {@link BackendHealth#check} (UP without a probe,
 * DOWN when it fails or does not answer in {@link #TIMEOUT}), UP with {@code locking=disabled} when
 * locking is off. Never throws.
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
    BackendHealth h = BackendHealth.check(b, TIMEOUT);
    return r.status(h.healthy()).withData("probe", h.description()).build();
  }
}
