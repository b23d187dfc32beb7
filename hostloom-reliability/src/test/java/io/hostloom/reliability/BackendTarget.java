package io.hostloom.reliability;

import java.net.InetSocketAddress;

/**
 * A real backend server the scenarios run against, started by the test on loopback ports.
 * Capabilities beyond reaching the server are sub-interfaces ({@link RestartableTarget}), so a
 * scenario that needs one is only declared for backends that have it.
 */
interface BackendTarget extends AutoCloseable {

  /** A short name for reports, e.g. {@code Redis}. */
  String name();

  /** How to reach the server directly. */
  BackendSpec spec();

  /** The server's TCP endpoint, for a {@link io.hostloom.testkit.TcpFaultProxy} to forward to. */
  InetSocketAddress endpoint();

  /** How to reach the server through a proxy listening on {@code host:port}. */
  BackendSpec specThrough(String host, int port);

  /**
   * How many lock records the server stores in all, read from the server itself (not through the
   * backend under test): used to show that rejected input changed nothing.
   */
  long storedRecords();

  /** Stops the server and deletes its data. */
  @Override
  void close();
}
