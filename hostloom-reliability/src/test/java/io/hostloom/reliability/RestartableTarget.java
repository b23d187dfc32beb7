package io.hostloom.reliability;

/** A {@link BackendTarget} whose server the test can take down and bring back on the same port. */
interface RestartableTarget extends BackendTarget {

  /**
   * Takes the server down; returns once it no longer serves.
   *
   * @param crash {@code true} for an abrupt stop (SIGKILL or an immediate shutdown), {@code false}
   *     for an orderly one
   */
  void stopServer(boolean crash);

  /** Starts the server again on the same port; returns once it serves. */
  void startServer();
}
