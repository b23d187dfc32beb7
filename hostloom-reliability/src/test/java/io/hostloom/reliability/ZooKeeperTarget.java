package io.hostloom.reliability;

import io.hostloom.zookeeper.ZooKeeperLockBackend;
import io.hostloom.zookeeper.ZooKeeperTestServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * A private ZooKeeper server (embedded in the test JVM, its own data directory) from the ZooKeeper
 * module's test fixture; worker JVMs reach it by its connect string. Stopping it keeps its data, so
 * leases and tokens survive the restart (a "crash" is the same stop: the embedded server cannot be
 * killed apart from this JVM; every acknowledged write is on disk either way).
 */
final class ZooKeeperTarget implements RestartableTarget {
  private final ZooKeeperTestServer server = ZooKeeperTestServer.startNew();

  @Override
  public String name() {
    return "ZooKeeper";
  }

  @Override
  public BackendSpec spec() {
    return new BackendSpec("zookeeper", server.connectString(), Duration.ofSeconds(2));
  }

  @Override
  public InetSocketAddress endpoint() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port());
  }

  @Override
  public BackendSpec specThrough(String host, int port) {
    return spec().withAddress(host + ":" + port);
  }

  @Override
  public long storedRecords() {
    return server.childCount(ZooKeeperLockBackend.DEFAULT_ROOT + "/locks");
  }

  @Override
  public void stopServer(boolean crash) {
    server.stop();
  }

  @Override
  public void startServer() {
    server.restart();
  }

  @Override
  public void close() {
    server.close();
  }
}
