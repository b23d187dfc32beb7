package io.hostloom.springboot.store.zookeeper;

import io.hostloom.springboot.store.HostloomStore;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Binder;

/** {@code hostloom.store=zookeeper}: the rules of {@code hostloom.zookeeper.*}. */
public final class ZooKeeperStore implements HostloomStore {
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
    ZooKeeperStoreProperties z =
        binder
            .bind("hostloom.zookeeper", ZooKeeperStoreProperties.class)
            .orElseGet(ZooKeeperStoreProperties::new);
    String connect = z.getConnectString() == null ? "" : z.getConnectString().strip();
    if (connect.isEmpty()) {
      problems.add(
          "hostloom.zookeeper.connect-string is required with hostloom.store=zookeeper, e.g."
              + " zk1:2181,zk2:2181,zk3:2181");
    }
    String root = z.getRootPath();
    if (root == null || !root.startsWith("/") || root.endsWith("/") || root.contains("//")) {
      problems.add(
          "hostloom.zookeeper.root-path must be a znode path like /hostloom but was '"
              + root
              + "'");
    }
    HostloomStore.requirePositive(
        "hostloom.zookeeper.session-timeout", z.getSessionTimeout(), problems);
    HostloomStore.requirePositive(
        "hostloom.zookeeper.command-timeout", z.getCommandTimeout(), problems);
    HostloomStore.requirePositive(
        "hostloom.zookeeper.health-timeout", z.getHealthTimeout(), problems);
  }
}
