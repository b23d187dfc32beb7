package io.hostloom.reliability;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Every reliability scenario against a real MariaDB server started by the test. */
class MariaDbReliabilityTest extends OutageScenarios {
  private static MariaDbTarget mariadb;

  @BeforeAll
  static void startMariaDb() {
    mariadb = new MariaDbTarget();
  }

  @AfterAll
  static void stopMariaDb() {
    if (mariadb != null) {
      mariadb.close();
    }
  }

  @Override
  RestartableTarget target() {
    return mariadb;
  }

  // one durable commit (fsync) per lock operation: a somewhat smaller CI load than Redis
  @Override
  long contentionGrantsPerProcess() {
    return Soak.pick(1_000, 200_000);
  }
}
