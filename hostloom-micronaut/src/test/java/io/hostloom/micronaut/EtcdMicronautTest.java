package io.hostloom.micronaut;

import io.hostloom.etcd.EtcdLockBackend;
import io.hostloom.etcd.EtcdServerProcess;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import java.util.Map;
import org.junit.jupiter.api.TestInstance;

/** hostloom.backend=etcd over a real etcd (the etcd module's test launcher). */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EtcdMicronautTest extends BackendContextContract implements TestPropertyProvider {
  @Override
  Class<EtcdLockBackend> backendType() {
    return EtcdLockBackend.class;
  }

  @Override
  public Map<String, String> getProperties() {
    return Map.of(
        "hostloom.backend", "etcd",
        "hostloom.etcd.endpoints", EtcdServerProcess.shared().endpoint(),
        "hostloom.etcd.key-prefix", "/mn-test/",
        "hostloom.locking.namespace", "mn-etcd");
  }
}
