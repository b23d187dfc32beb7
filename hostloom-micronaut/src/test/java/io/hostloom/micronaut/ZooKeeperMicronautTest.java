package io.hostloom.micronaut;

import io.hostloom.zookeeper.ZooKeeperLockBackend;
import io.hostloom.zookeeper.ZooKeeperTestServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import java.util.Map;
import org.junit.jupiter.api.TestInstance;

/** hostloom.backend=zookeeper over a real in-process ZooKeeper (the module's test launcher). */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ZooKeeperMicronautTest extends BackendContextContract implements TestPropertyProvider {
  @Override
  Class<ZooKeeperLockBackend> backendType() {
    return ZooKeeperLockBackend.class;
  }

  @Override
  public Map<String, String> getProperties() {
    return Map.of(
        "hostloom.backend", "zookeeper",
        "hostloom.zookeeper.connect-string", ZooKeeperTestServer.shared().connectString(),
        "hostloom.zookeeper.root-path", "/mn-test",
        "hostloom.locking.namespace", "mn-zookeeper");
  }
}
