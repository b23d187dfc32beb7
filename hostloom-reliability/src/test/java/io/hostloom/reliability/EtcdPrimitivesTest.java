package io.hostloom.reliability;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The semaphore and the reader-writer lock across JVMs against the real server ({@link
 * PrimitiveScenarios}), on a server of its own so that the outage phase can crash and restart it.
 */
class EtcdPrimitivesTest extends PrimitiveScenarios {
  private static EtcdTarget server;

  @BeforeAll
  static void startServer() {
    server = new EtcdTarget();
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @Override
  BackendTarget target() {
    return server;
  }
}
