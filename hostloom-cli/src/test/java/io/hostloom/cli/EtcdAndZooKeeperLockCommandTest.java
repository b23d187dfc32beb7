package io.hostloom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.etcd.EtcdServerProcess;
import io.hostloom.zookeeper.ZooKeeperTestServer;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code etcd://} and {@code zookeeper://} URIs reach real servers: tokens grow. */
class EtcdAndZooKeeperLockCommandTest {
  @TempDir Path dir;

  private void tokensGrow(String uri) {
    Map<String, String> env = Map.of("HOSTLOOM_BACKEND", uri, "HOSTLOOM_NAMESPACE", "cli-uri");
    String[] args = {"lock", "uri-job", "--", "sh", "-c", "echo $HOSTLOOM_FENCING_TOKEN"};
    long first = Long.parseLong(Hostloom.run(dir, env, args).assertExit(0).stdout().strip());
    long second = Long.parseLong(Hostloom.run(dir, env, args).assertExit(0).stdout().strip());
    assertThat(second).as(uri).isGreaterThan(first);
    Hostloom status = Hostloom.run(dir, env, "status", "uri-job").assertExit(0);
    assertThat(status.stdout().strip()).isEqualTo("uri-job: free");
  }

  @Test
  void etcd() {
    tokensGrow("etcd://127.0.0.1:" + EtcdServerProcess.shared().clientPort());
  }

  @Test
  void zooKeeper() {
    tokensGrow("zookeeper://" + ZooKeeperTestServer.shared().connectString());
  }
}
