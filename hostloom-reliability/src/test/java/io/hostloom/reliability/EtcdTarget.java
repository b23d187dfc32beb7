package io.hostloom.reliability;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.GetOption;
import io.hostloom.etcd.EtcdKeyLayout;
import io.hostloom.etcd.EtcdServerProcess;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A private single-member etcd from the etcd module's test fixture. A restart keeps every lease and
 * revision (etcd persists them), so grants outlive an outage and tokens keep increasing.
 */
final class EtcdTarget extends ServerTarget {
  private final EtcdServerProcess server;

  EtcdTarget() {
    this(EtcdServerProcess.startNew());
  }

  private EtcdTarget(EtcdServerProcess server) {
    super(
        "etcd",
        "etcd",
        server.endpoint(),
        server.clientPort(),
        server::start,
        server::stop,
        server::kill,
        server::close);
    this.server = server;
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
}
