package io.hostloom.reliability;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Every reliability scenario against a real PostgreSQL server started by the test. */
class PostgresReliabilityTest extends OutageScenarios {
  private static PostgresTarget postgres;

  @BeforeAll
  static void startPostgres() {
    postgres = new PostgresTarget();
  }

  @AfterAll
  static void stopPostgres() {
    if (postgres != null) {
      postgres.close();
    }
  }

  @Override
  RestartableTarget target() {
    return postgres;
  }

  // one durable commit (fsync) per lock operation: a somewhat smaller CI load than Redis
  @Override
  long contentionGrantsPerProcess() {
    return Soak.pick(1_000, 200_000);
  }
}
