package io.hostloom.reliability;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Every reliability scenario against a real ZooKeeper server started by the test (leases survive
 * its restarts).
 */
class ZooKeeperReliabilityTest extends OutageScenarios {
  private static ZooKeeperTarget zk;

  @BeforeAll
  static void startZooKeeper() {
    zk = new ZooKeeperTarget();
  }

  @AfterAll
  static void stopZooKeeper() {
    if (zk != null) {
      zk.close();
    }
  }

  @Override
  RestartableTarget target() {
    return zk;
  }
}
