package io.hostloom.testkit.capability;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.BackendHealthProbe;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.Closing;
import io.hostloom.testkit.TcpFaultProxy;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.server.ServerProcess;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link BackendHealthProbe} capability as one JUnit 5 suite, against a real server: healthy
 * while the server answers; unhealthy, never exceptionally and within {@link #probeBound()}, when
 * nothing listens, when the server goes away (and healthy again when it is back) and when it stops
 * answering; descriptions never name the endpoint's port or any of {@link #secrets()}.
 *
 * <pre>{@code
 * class RedisHealthProbeTest extends HealthProbeSuite {
 *   @Override protected InetSocketAddress serverAddress() { return ...; }
 *   @Override protected LockBackend newBackend(InetSocketAddress at) {
 *     return RedisLockBackend.builder().uri("redis://" + at.getHostString() + ":" + at.getPort())
 *         .healthTimeout(Duration.ofSeconds(1)).build();
 *   }
 * }
 * }</pre>
 *
 * <p>"The server goes away" and "stops answering" are played by a {@link TcpFaultProxy} between the
 * instance and {@link #serverAddress()}: the suite passes the proxy's address to {@link
 * #newBackend(InetSocketAddress)}, so the subclass needs no control over the server itself.
 */
public abstract class HealthProbeSuite {
  private final List<AutoCloseable> resources = new ArrayList<>();

  /** Where the shared real server listens. */
  protected abstract InetSocketAddress serverAddress();

  /**
   * A new instance of the backend under test that reaches its server at {@code address} (the real
   * server, a proxy in front of it, or a port nobody listens on); it must implement {@link
   * BackendHealthProbe}, and its probe must give up well within {@link #probeBound()}.
   */
  protected abstract LockBackend newBackend(InetSocketAddress address);

  /**
   * Strings no description may contain (passwords, account keys). The port of the address an
   * instance was given is always forbidden. Default: none.
   */
  protected List<String> secrets() {
    return List.of();
  }

  /**
   * The longest one probe may take, whatever the server does (scaled by {@link TestTiming}).
   * Default 10 s.
   */
  protected Duration probeBound() {
    return Duration.ofSeconds(10);
  }

  /**
   * How long the server may stay reported in its previous state after the suite changed it (open
   * connections noticed as dead, a pool that reconnects). Scaled. Default 20 s.
   */
  protected Duration recoveryBound() {
    return Duration.ofSeconds(20);
  }

  /** Closes an instance after each test. Default: closes it if {@link AutoCloseable}. */
  protected void closeBackend(LockBackend instance) throws Exception {
    Closing.ifCloseable(instance);
  }

  @AfterEach
  final void closeProbeResources() throws Exception {
    Collections.reverse(resources); // proxies were opened before the instances that use them
    Closing.all(resources, AutoCloseable::close);
  }

  // ---------------------------------------------------------------- helpers

  /** A new instance at {@code address}, closed after the test. */
  protected final LockBackend instance(InetSocketAddress address) {
    LockBackend b = newBackend(address);
    assertThat(b).as("newBackend(address)").isInstanceOf(BackendHealthProbe.class);
    resources.add(() -> closeBackend(b));
    return b;
  }

  /** A proxy in front of {@link #serverAddress()}, closed after the test. */
  protected final TcpFaultProxy proxy() {
    TcpFaultProxy proxy = TcpFaultProxy.start(serverAddress());
    resources.add(proxy);
    return proxy;
  }

  /** A loopback port nobody listens on ({@link ServerProcess#freePort()}). */
  protected static int closedPort() {
    return ServerProcess.freePort();
  }

  /** One probe: completes normally within {@link #probeBound()} and keeps the secrets. */
  protected final BackendHealth probe(LockBackend b, InetSocketAddress address) {
    BackendHealth h =
        TestTiming.get(((BackendHealthProbe) b).checkHealth(), probeBound()); // fails if thrown
    assertThat(h.description()).as("description").isNotBlank();
    assertThat(h.description())
        .as("description of a probe at port %d", address.getPort())
        .doesNotContain(Integer.toString(address.getPort()));
    for (String secret : secrets()) {
      assertThat(h.description()).as("description").doesNotContain(secret);
    }
    return h;
  }

  private void awaitHealthy(LockBackend b, InetSocketAddress at, boolean healthy, String what) {
    List<String> seen = new ArrayList<>();
    TestTiming.await(
        what + " (descriptions seen: " + seen + ")",
        () -> {
          BackendHealth h = probe(b, at);
          seen.add(h.description());
          return h.healthy() == healthy;
        },
        recoveryBound());
  }

  private static InetSocketAddress addressOf(TcpFaultProxy proxy) {
    return new InetSocketAddress(proxy.host(), proxy.port());
  }

  // ---------------------------------------------------------------- tests

  @Test
  void healthyWhileTheServerAnswers() {
    InetSocketAddress at = serverAddress();
    LockBackend b = instance(at);
    BackendHealth h = probe(b, at);
    assertThat(h.healthy()).as(h.description()).isTrue();
    assertThat(probe(b, at).healthy()).as("a second probe").isTrue();
  }

  @Test
  void unhealthyWhenNothingListensAndSaysUnavailable() {
    InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), closedPort());
    LockBackend b = instance(at);
    BackendHealth h = probe(b, at);
    assertThat(h.healthy()).as(h.description()).isFalse();
    assertThat(h.description()).contains("UNAVAILABLE");
  }

  @Test
  void unhealthyWhileTheServerIsGoneAndHealthyAgainWhenItIsBack() {
    TcpFaultProxy proxy = proxy();
    InetSocketAddress at = addressOf(proxy);
    LockBackend b = instance(at);
    awaitHealthy(b, at, true, "healthy before the outage (through the proxy)");

    proxy.refuseConnections();
    proxy.dropConnections();
    awaitHealthy(b, at, false, "unhealthy while the server is gone");

    proxy.acceptConnections();
    awaitHealthy(b, at, true, "healthy again once the server is back");
  }

  @Test
  void unhealthyWithinTheBoundWhenTheServerStopsAnswering() {
    TcpFaultProxy proxy = proxy();
    InetSocketAddress at = addressOf(proxy);
    LockBackend b = instance(at);
    awaitHealthy(b, at, true, "healthy before the stall (through the proxy)");

    proxy.holdReplies();
    BackendHealth stalled = probe(b, at);
    assertThat(stalled.healthy()).as(stalled.description()).isFalse();

    proxy.releaseReplies();
    awaitHealthy(b, at, true, "healthy again once replies flow");
  }
}
