package io.hostloom.springboot.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.BackendHealth;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Contract 110 without Spring's health types: the check mirrors the backend's probe. */
class HostLoomHealthCheckTest {

  @Test
  void aBackendWithoutAProbeIsUpWithAnExplanation() {
    HostLoomHealthCheck.Result r =
        new HostLoomHealthCheck(true, Optional.of(new InMemoryLockBackend())).check();
    assertThat(r.up()).isTrue();
    assertThat(r.details())
        .containsEntry("backend", "in-memory")
        .containsEntry("probe", "the backend has no health probe; assumed reachable");
  }

  @Test
  void disabledLockingIsUpWithDisabledAndNoBackendWhileEnabledIsDown() {
    HostLoomHealthCheck.Result disabled = new HostLoomHealthCheck(false, Optional.empty()).check();
    assertThat(disabled.up()).isTrue();
    assertThat(disabled.details()).containsEntry("locking", "disabled");
    HostLoomHealthCheck.Result none = new HostLoomHealthCheck(true, Optional.empty()).check();
    assertThat(none.up()).isFalse();
    assertThat(none.details()).containsEntry("backend", "none");
  }

  @Test
  void aProbedBackendIsMirroredAndAFailedProbeIsDown() {
    ProbedBackend probed = new ProbedBackend();
    HostLoomHealthCheck check = new HostLoomHealthCheck(true, Optional.of(probed));
    probed.answer = CompletableFuture.completedFuture(BackendHealth.healthy("PONG"));
    assertThat(check.check().up()).isTrue();
    assertThat(check.check().details()).containsEntry("probe", "PONG");
    probed.answer =
        CompletableFuture.completedFuture(BackendHealth.unhealthy("connection refused"));
    assertThat(check.check().up()).isFalse();
    assertThat(check.check().details()).containsEntry("probe", "connection refused");
    probed.answer = CompletableFuture.failedFuture(new IllegalStateException("bug"));
    assertThat(check.check().up()).isFalse();
    assertThat(check.check().details()).containsEntry("probe", "no answer: ExecutionException");
  }
}
