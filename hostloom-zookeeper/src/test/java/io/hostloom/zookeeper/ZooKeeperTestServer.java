package io.hostloom.zookeeper;

import io.hostloom.testkit.server.ServerProcess;
import io.hostloom.testkit.server.SharedServer;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * A real ZooKeeper server for tests: Curator's embedded {@link TestingServer} (the ZooKeeper 3.9
 * server, in this JVM) on a free loopback port, with its own data directory, so {@link #restart()}
 * keeps every znode and the zxid history as a real restart does. Public and in the test-jar so the
 * reliability scenarios and the WOPI host reuse it; other JVMs reach it by {@link
 * #connectString()}.
 */
public final class ZooKeeperTestServer implements AutoCloseable {
  private static final int TICK_MILLIS = 200; // sessions may be 0.4 s to 4 s
  private static final SharedServer<ZooKeeperTestServer> SHARED =
      new SharedServer<>("zookeeper", ZooKeeperTestServer::new, ZooKeeperTestServer::close);

  private final TestingServer server;
  private final File dataDir;
  private final int port;

  private ZooKeeperTestServer() {
    try {
      this.port = ServerProcess.freePort();
      this.dataDir = Files.createTempDirectory("hostloom-zk").toFile();
      InstanceSpec spec =
          new InstanceSpec(
              dataDir,
              port,
              -1,
              -1,
              true,
              1,
              TICK_MILLIS,
              -1,
              Map.of("admin.enableServer", "false"),
              InetAddress.getLoopbackAddress().getHostAddress());
      this.server = new TestingServer(spec, true);
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the embedded ZooKeeper server", e);
    }
  }

  /** One server for the whole test JVM, stopped when it exits. */
  public static ZooKeeperTestServer shared() {
    return SHARED.get();
  }

  /** A server of the caller's own (to stop or restart); the caller closes it. */
  public static ZooKeeperTestServer startNew() {
    return new ZooKeeperTestServer();
  }

  /** {@code 127.0.0.1:<port>}. */
  public String connectString() {
    return InetAddress.getLoopbackAddress().getHostAddress() + ":" + port;
  }

  public int port() {
    return port;
  }

  /** Stops the server; its data directory stays for {@link #restart()}. */
  public void stop() {
    try {
      server.stop();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Starts it again on the same port and data directory (stopped or not). */
  public void restart() {
    try {
      server.restart();
    } catch (Exception e) {
      throw new IllegalStateException("cannot restart the embedded ZooKeeper server", e);
    }
  }

  /**
   * Expires the session of {@code zk} on the server, as a long partition would: a second client
   * joins the session with its id and password and closes it.
   */
  public void expireSession(ZooKeeper zk) {
    try {
      CountDownLatch twinConnected = new CountDownLatch(1);
      ZooKeeper twin =
          new ZooKeeper(
              connectString(),
              4000,
              (WatchedEvent e) -> {
                if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                  twinConnected.countDown();
                }
              },
              zk.getSessionId(),
              zk.getSessionPasswd());
      // closing a twin that never connected sends no closeSession (seen under CI load)
      if (!twinConnected.await(30, TimeUnit.SECONDS)) {
        twin.close(2000);
        throw new IllegalStateException("the twin session did not connect within 30 s");
      }
      twin.close(2000);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** How many children {@code path} has (0 when it does not exist), read by a client of its own. */
  public int childCount(String path) {
    try {
      ZooKeeper zk = new ZooKeeper(connectString(), 4000, (WatchedEvent e) -> {});
      try {
        return zk.exists(path, false) == null ? 0 : zk.getChildren(path, false).size();
      } finally {
        zk.close(2000);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (org.apache.zookeeper.KeeperException e) {
      throw new IllegalStateException("cannot list " + path, e);
    }
  }

  /**
   * Sets the data version of the znode at {@code path} in the running server's tree, as if that
   * many writes had been made (2^31 and more {@code setData} calls cannot be made in a test: see
   * {@code ZooKeeperVersionWrapTest}). The server's next write of the znode checks and increments
   * this value exactly as it would the real count. Test-only: the in-process server's internals.
   */
  public void setDataVersion(String path, int version) {
    org.apache.zookeeper.server.DataNode node = dataTree().getNode(path);
    if (node == null) {
      throw new IllegalArgumentException("no znode " + path);
    }
    synchronized (node) {
      node.stat.setVersion(version);
    }
  }

  /** The data version of the znode at {@code path} in the server's tree; -2 when absent. */
  public int dataVersion(String path) {
    org.apache.zookeeper.server.DataNode node = dataTree().getNode(path);
    if (node == null) {
      return -2;
    }
    synchronized (node) {
      return node.stat.getVersion();
    }
  }

  private org.apache.zookeeper.server.DataTree dataTree() {
    try {
      java.lang.reflect.Field f = TestingServer.class.getDeclaredField("testingZooKeeperServer");
      f.setAccessible(true);
      Object testing = f.get(server);
      java.lang.reflect.Field m = testing.getClass().getDeclaredField("main");
      m.setAccessible(true);
      org.apache.curator.test.ZooKeeperServerEmbeddedAdapter main =
          (org.apache.curator.test.ZooKeeperServerEmbeddedAdapter) m.get(testing);
      return main.getServerCnxnFactory().getZooKeeperServer().getZKDatabase().getDataTree();
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IllegalStateException("cannot reach the embedded server's data tree", e);
    }
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException e) {
      // temp data only
    }
  }
}
