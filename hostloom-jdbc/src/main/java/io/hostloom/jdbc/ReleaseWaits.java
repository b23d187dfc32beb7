package io.hostloom.jdbc;

import java.util.concurrent.CompletableFuture;

/**
 * What wakes the backend's release waits (kept in its {@code ReleaseWaitRegistry}): LISTEN/NOTIFY
 * (PostgreSQL) or polling (MariaDB).
 */
interface ReleaseWaits extends AutoCloseable {
  /** Whether signals can arrive right now. */
  boolean isListening();

  /**
   * A wait on {@code storedKey} was registered; a poller reads the key until {@code wait} ends. A
   * listener, woken by announcements, does nothing.
   */
  default void started(String storedKey, CompletableFuture<Boolean> wait) {}

  /** Stops; the backend ends the pending waits. */
  @Override
  void close();
}
