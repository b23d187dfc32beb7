package io.hostloom.reliability;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Every reliability scenario against a real {@code etcd} member started by the test. */
class EtcdReliabilityTest extends OutageScenarios {
  private static EtcdTarget etcd;

  @BeforeAll
  static void startEtcd() {
    etcd = new EtcdTarget();
  }

  @AfterAll
  static void stopEtcd() {
    if (etcd != null) {
      etcd.close();
    }
  }

  @Override
  RestartableTarget target() {
    return etcd;
  }
}
