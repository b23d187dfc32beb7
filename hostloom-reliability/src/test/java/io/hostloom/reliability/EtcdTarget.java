package io.hostloom.reliability;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.GetOption;
import io.hostloom.etcd.EtcdKeyLayout;
import io.hostloom.etcd.EtcdServerProcess;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A private single-member etcd from the etcd module's test fixture. A restart keeps every lease and
 * revision (etcd persists them), so grants outlive an outage and tokens keep increasing.
 */
final class EtcdTarget implements RestartableTarget {
  private final EtcdServerProcess server = EtcdServerProcess.startNew();

  @Override
  public String name() {
    return "etcd";
  }

  @Override
  public BackendSpec spec() {
    return new BackendSpec("etcd", server.endpoint(), Duration.ofSeconds(2));
  }

  @Override
  public InetSocketAddress endpoint() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.clientPort());
  }

  @Override
  public BackendSpec specThrough(String host, int port) {
    return spec().withAddress("http://" + host + ":" + port);
  }

  /** Keys under the backend's prefix (owner and data keys), counted by etcd itself. */
  @Override
  public long storedRecords() {
    ByteSequence prefix = ByteSequence.from(EtcdKeyLayout.DEFAULT_PREFIX, StandardCharsets.UTF_8);
    try (Client c = Client.builder().endpoints(server.endpoint()).build()) {
      return c.getKVClient()
          .get(prefix, GetOption.builder().isPrefix(true).withCountOnly(true).build())
          .get(10, TimeUnit.SECONDS)
          .getCount();
    } catch (Exception e) {
      throw new IllegalStateException("cannot count etcd keys", e);
    }
  }

  @Override
  public void stopServer(boolean crash) {
    if (crash) {
      server.kill();
    } else {
      server.stop();
    }
  }

  @Override
  public void startServer() {
    server.start();
  }

  @Override
  public void close() {
    server.close();
  }
}
