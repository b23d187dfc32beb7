package io.hostloom.locking.spi;

import java.util.concurrent.CompletableFuture;

/**
 * Optional capability of a {@link LockBackend}: does now what its first operation would otherwise
 * pay for (connecting, authenticating, loading scripts, preparing statements, starting a release
 * subscription), so that the first lock a caller takes costs what every later one does. Each
 * backend's README says what its first call costs without a warm-up and what {@code warmUp} does.
 *
 * <p>Never blocks. The future completes when the work is done, or exceptionally with a {@link
 * LockBackendException} ({@code UNAVAILABLE} when the server could not be reached, {@code TIMEOUT}
 * when a step got no answer within the backend's own call bound). A failed warm-up changes nothing:
 * operations still connect on first use, and a later warm-up tries again. Calling it again once it
 * succeeded costs at most one cheap round trip. A closed backend answers {@code UNAVAILABLE}.
 *
 * <p>Frameworks call it at start-up (the Spring Boot starter does, see {@code hostloom.warm-up}); a
 * plain Java caller calls it once after building the backend, where a slow first call matters.
 */
public interface BackendWarmUp {
  /**
   * Connects and prepares what the first operation needs.
   *
   * @return completes when done; exceptionally with a {@link LockBackendException} on failure
   */
  CompletableFuture<Void> warmUp();
}
