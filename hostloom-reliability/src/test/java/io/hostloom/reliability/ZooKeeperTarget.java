package io.hostloom.reliability;

import io.hostloom.zookeeper.ZooKeeperLockBackend;
import io.hostloom.zookeeper.ZooKeeperTestServer;

/**
 * A private ZooKeeper server (embedded in the test JVM, its own data directory) from the ZooKeeper
 * module's test fixture; worker JVMs reach it by its connect string. Stopping it keeps its data, so
 * leases and tokens survive the restart (a "crash" is the same stop: the embedded server cannot be
 * killed apart from this JVM; every acknowledged write is on disk either way).
 */
final class ZooKeeperTarget extends ServerTarget {
  private final ZooKeeperTestServer server;

  ZooKeeperTarget() {
    this(ZooKeeperTestServer.startNew());
  }

  private ZooKeeperTarget(ZooKeeperTestServer server) {
    super(
        "ZooKeeper",
        "zookeeper",
        server.connectString(),
        server.port(),
        server::restart,
        server::stop,
        server::stop,
        server::close);
    this.server = server;
  }

  @Override
  public long storedRecords() {
    return server.childCount(ZooKeeperLockBackend.DEFAULT_ROOT + "/locks");
  }
}
