package io.hostloom.locking.spi;

import java.util.concurrent.CompletableFuture;

/**
 * Optional capability of a {@link LockBackend}: a cheap reachability check for readiness probes.
 * The future never completes exceptionally for an unreachable backend: it completes with {@link
 * BackendHealth#unhealthy}. It completes within the backend's health timeout.
 */
public interface BackendHealthProbe {
  CompletableFuture<BackendHealth> checkHealth();
}
