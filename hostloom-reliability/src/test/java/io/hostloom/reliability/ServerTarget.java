package io.hostloom.reliability;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * What the restartable targets share: a private server from a backend module's test-jar on one
 * loopback port, reached at an address naming {@code 127.0.0.1:port} (a proxy's address replaces
 * it), with a 2 s command timeout, and stopped, killed, started and closed by the launcher's own
 * calls. A subclass adds how to count the server's records.
 */
abstract class ServerTarget implements RestartableTarget {
  private final String name;
  private final String type;
  private final String address;
  private final int port;
  private final Runnable start;
  private final Runnable stop;
  private final Runnable kill;
  private final Runnable close;

  /**
   * @param name for reports
   * @param type the {@link BackendSpec} type
   * @param address the server's address for that type, naming {@code 127.0.0.1:port}
   * @param stop an orderly stop; {@code kill} an abrupt one (may be the same)
   */
  ServerTarget(
      String name,
      String type,
      String address,
      int port,
      Runnable start,
      Runnable stop,
      Runnable kill,
      Runnable close) {
    this.name = name;
    this.type = type;
    this.address = address;
    this.port = port;
    this.start = start;
    this.stop = stop;
    this.kill = kill;
    this.close = close;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final BackendSpec spec() {
    return new BackendSpec(type, address, Duration.ofSeconds(2));
  }

  @Override
  public final InetSocketAddress endpoint() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
  }

  @Override
  public final BackendSpec specThrough(String host, int port) {
    return spec().withAddress(address.replace("127.0.0.1:" + this.port, host + ":" + port));
  }

  @Override
  public final void stopServer(boolean crash) {
    (crash ? kill : stop).run();
  }

  @Override
  public final void startServer() {
    start.run();
  }

  @Override
  public final void close() {
    close.run();
  }
}
