package io.hostloom.springboot.backend.zookeeper;

import io.hostloom.springboot.backend.BackendDefinition;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Binder;

/** {@code hostloom.backend=zookeeper}: the rules of {@code hostloom.zookeeper.*}. */
public final class ZooKeeperBackendDefinition implements BackendDefinition {
  @Override
  public String name() {
    return "zookeeper";
  }

  @Override
  public Optional<String> backendClass() {
    return Optional.of("io.hostloom.zookeeper.ZooKeeperLockBackend");
  }

  @Override
  public String artifact() {
    return "io.hostloom:hostloom-zookeeper";
  }

  @Override
  public void validate(Binder binder, Context context, List<String> problems) {
    ZooKeeperBackendProperties z =
        binder
            .bind("hostloom.zookeeper", ZooKeeperBackendProperties.class)
            .orElseGet(ZooKeeperBackendProperties::new);
    String connect = z.getConnectString() == null ? "" : z.getConnectString().strip();
    if (connect.isEmpty()) {
      problems.add(
          "hostloom.zookeeper.connect-string is required with hostloom.backend=zookeeper, e.g."
              + " zk1:2181,zk2:2181,zk3:2181");
    }
    String root = z.getRootPath();
    if (root == null || !root.startsWith("/") || root.endsWith("/") || root.contains("//")) {
      problems.add(
          "hostloom.zookeeper.root-path must be a znode path like /hostloom but was '"
              + root
              + "'");
    }
    BackendDefinition.requirePositive(
        "hostloom.zookeeper.session-timeout", z.getSessionTimeout(), problems);
    BackendDefinition.requirePositive(
        "hostloom.zookeeper.command-timeout", z.getCommandTimeout(), problems);
    BackendDefinition.requirePositive(
        "hostloom.zookeeper.health-timeout", z.getHealthTimeout(), problems);
  }
}
