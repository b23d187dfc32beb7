package io.hostloom.benchmarks.faces;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CountingClientCnxnSocket;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * The ZooKeeper client making one request per operation, one persistent znode per lock holding
 * {@code owner\ndata}, every change conditioned on the version the caller last saw: acquire/lock =
 * {@code create} (fails when the znode exists), refresh = {@code setData} with the version (a new
 * mtime), relock = {@code setData} of the new owner with the version, release/unlock = {@code
 * delete} with the version, get lock = {@code getData}. What it leaves out: expiry (HostLoom
 * compares the znode's mtime with the server's now, read by a write to a clock znode), fencing
 * tokens and reads of a holder on refusal.
 */
final class RawZooKeeperFace implements Face {
  private static final String OWNER = "0123456789abcdef0123456789abcdef";
  private static final String ROOT = "/raw";

  private final ZooKeeper zk;
  private final CountingClientCnxnSocket.Counts counts;
  private final Map<String, Integer> versions = new HashMap<>();

  RawZooKeeperFace(String connectString, CountingClientCnxnSocket.Counts counts) throws Exception {
    this.counts = counts;
    CountDownLatch connected = new CountDownLatch(1);
    this.zk =
        new ZooKeeper(
            connectString,
            10_000,
            e -> {
              if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
              }
            });
    if (!connected.await(30, TimeUnit.SECONDS)) {
      zk.close();
      throw new IllegalStateException("no ZooKeeper connection in 30 s");
    }
    try {
      zk.create(ROOT, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
    } catch (KeeperException.NodeExistsException e) {
      // a second run on the same server
    }
  }

  private static String path(String key) {
    return ROOT + "/" + key;
  }

  private static byte[] value(String owner, String data) {
    return (owner + "\n" + data).getBytes(StandardCharsets.UTF_8);
  }

  private void create(String key, String owner, String data) throws Exception {
    Stat stat = new Stat();
    zk.create(
        path(key), value(owner, data), ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT, stat);
    versions.put(key, stat.getVersion());
  }

  private void set(String key, String owner, String data) throws Exception {
    versions.put(key, zk.setData(path(key), value(owner, data), versions.get(key)).getVersion());
  }

  private void delete(String key) throws Exception {
    zk.delete(path(key), versions.remove(key));
  }

  @Override
  public void acquire(String key) throws Exception {
    create(key, OWNER, "");
  }

  @Override
  public void release(String key) throws Exception {
    delete(key);
  }

  @Override
  public void lock(String file, String lockId) throws Exception {
    create(file, lockId, lockId);
  }

  @Override
  public void refresh(String file, String lockId) throws Exception {
    set(file, lockId, lockId);
  }

  @Override
  public String getLock(String file) throws Exception {
    try {
      String v = new String(zk.getData(path(file), false, null), StandardCharsets.UTF_8);
      return v.substring(v.indexOf('\n') + 1);
    } catch (KeeperException.NoNodeException e) {
      return "";
    }
  }

  @Override
  public void relock(String file, String newLockId, String oldLockId) throws Exception {
    set(file, newLockId, newLockId);
  }

  @Override
  public void unlock(String file, String lockId) throws Exception {
    delete(file);
  }

  @Override
  public long roundTrips() {
    return counts.roundTrips();
  }

  @Override
  public long requests() {
    return counts.requests();
  }

  @Override
  public void close() {
    try {
      zk.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
