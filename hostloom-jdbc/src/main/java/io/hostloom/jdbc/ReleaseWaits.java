package io.hostloom.jdbc;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** How a backend waits for releases: LISTEN/NOTIFY (PostgreSQL) or polling (MariaDB). */
interface ReleaseWaits extends AutoCloseable {
  /** Whether signals can arrive right now. */
  boolean isListening();

  /** See {@link io.hostloom.locking.spi.ReleaseSignal#awaitRelease}; the key in stored form. */
  CompletableFuture<Boolean> await(String storedKey, Duration maxWait);

  /** Stops; pending waits complete with {@code false}. */
  @Override
  void close();
}
