package io.hostloom.springboot.health;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.BackendHealthProbe;
import io.hostloom.locking.testing.ForwardingLockBackend;
import java.util.concurrent.CompletableFuture;

/**
 * An in-memory backend with a health probe whose answer the test sets (shared by both starters).
 */
public final class ProbedBackend extends ForwardingLockBackend implements BackendHealthProbe {
  /** The probe's next answer. */
  public volatile CompletableFuture<BackendHealth> answer =
      CompletableFuture.completedFuture(BackendHealth.healthy("ok"));

  public ProbedBackend() {
    super(new InMemoryLockBackend());
  }

  @Override
  public CompletableFuture<BackendHealth> checkHealth() {
    return answer;
  }

  @Override
  public String name() {
    return "probed";
  }
}
