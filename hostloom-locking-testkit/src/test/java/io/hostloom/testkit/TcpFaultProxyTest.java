package io.hostloom.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.testkit.TcpFaultProxy.Direction;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TcpFaultProxyTest {
  private final EchoServer echo = new EchoServer();
  private final TcpFaultProxy proxy = TcpFaultProxy.start(echo.address());

  @AfterEach
  void tearDown() throws IOException {
    proxy.close();
    echo.close();
  }

  private Socket connect() throws IOException {
    Socket s = new Socket(proxy.host(), proxy.port());
    s.setSoTimeout((int) TestTiming.scaled(Duration.ofSeconds(10)).toMillis());
    return s;
  }

  private static byte[] readFully(Socket s, int n) throws IOException {
    InputStream in = s.getInputStream();
    byte[] out = new byte[n];
    int off = 0;
    while (off < n) {
      int r = in.read(out, off, n - off);
      if (r < 0) {
        throw new IOException("end of stream after " + off + " of " + n + " bytes");
      }
      off += r;
    }
    return out;
  }

  private static String roundTrip(Socket s, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    s.getOutputStream().write(bytes);
    s.getOutputStream().flush();
    return new String(readFully(s, bytes.length), StandardCharsets.UTF_8);
  }

  @Test
  void forwardsBytesBothWaysIntact() throws IOException {
    byte[] payload = new byte[1 << 20];
    new Random(42).nextBytes(payload);
    try (Socket s = connect()) {
      Thread writer =
          new Thread(
              () -> {
                try {
                  s.getOutputStream().write(payload);
                  s.getOutputStream().flush();
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      writer.start();
      assertThat(Arrays.equals(readFully(s, payload.length), payload)).isTrue();
    }
    assertThat(proxy.bytesForwarded(Direction.TO_UPSTREAM)).isEqualTo(payload.length);
    assertThat(proxy.bytesForwarded(Direction.TO_CLIENT)).isEqualTo(payload.length);
    assertThat(proxy.acceptedConnections()).isEqualTo(1);
  }

  @Test
  void addsLatencyWithoutReordering() throws IOException {
    proxy.setLatency(Direction.TO_CLIENT, Duration.ofMillis(150));
    try (Socket s = connect()) {
      long start = System.nanoTime();
      assertThat(roundTrip(s, "one")).isEqualTo("one");
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .isGreaterThanOrEqualTo(Duration.ofMillis(150));
      s.getOutputStream().write("abc".getBytes(StandardCharsets.UTF_8));
      s.getOutputStream().write("def".getBytes(StandardCharsets.UTF_8));
      assertThat(new String(readFully(s, 6), StandardCharsets.UTF_8)).isEqualTo("abcdef");
      proxy.setLatency(Duration.ZERO);
      assertThat(roundTrip(s, "two")).isEqualTo("two");
    }
  }

  @Test
  void heldRepliesArriveOnlyAfterRelease() throws IOException {
    try (Socket s = connect()) {
      assertThat(roundTrip(s, "before")).isEqualTo("before");
      proxy.holdReplies();
      s.getOutputStream().write("held".getBytes(StandardCharsets.UTF_8));
      s.getOutputStream().flush();
      TestTiming.await(
          "the request reached the server",
          () -> proxy.bytesForwarded(Direction.TO_UPSTREAM) == "beforeheld".length(),
          Duration.ofSeconds(5));
      s.setSoTimeout(200);
      assertThatThrownBy(() -> s.getInputStream().read())
          .isInstanceOf(SocketTimeoutException.class);

      proxy.releaseReplies();

      s.setSoTimeout(10_000);
      assertThat(new String(readFully(s, 4), StandardCharsets.UTF_8)).isEqualTo("held");
    }
  }

  @Test
  void partitionHoldsRequestsToo() throws IOException {
    try (Socket s = connect()) {
      proxy.partition();
      s.getOutputStream().write("x".getBytes(StandardCharsets.UTF_8));
      s.setSoTimeout(200);
      assertThatThrownBy(() -> s.getInputStream().read())
          .isInstanceOf(SocketTimeoutException.class);
      assertThat(proxy.bytesForwarded(Direction.TO_UPSTREAM)).isZero();
      proxy.heal();
      s.setSoTimeout(10_000);
      assertThat(readFully(s, 1)).containsExactly('x');
    }
  }

  @Test
  void droppedConnectionsAreResetAndNewOnesWork() throws IOException {
    try (Socket s = connect()) {
      assertThat(roundTrip(s, "hi")).isEqualTo("hi");
      assertThat(proxy.openConnections()).isEqualTo(1);

      assertThat(proxy.dropConnections()).isEqualTo(1);

      assertThatThrownBy(
              () -> {
                // a reset connection fails either on read (reset / end of stream) or on write
                s.getOutputStream().write(1);
                if (s.getInputStream().read() < 0) {
                  throw new IOException("end of stream");
                }
              })
          .isInstanceOf(IOException.class);
      assertThat(proxy.openConnections()).isZero();
    }
    try (Socket s = connect()) {
      assertThat(roundTrip(s, "again")).isEqualTo("again");
    }
  }

  @Test
  void refusedConnectionsComeBackOnTheSamePort() throws IOException {
    try (Socket open = connect()) {
      assertThat(roundTrip(open, "a")).isEqualTo("a");
      proxy.refuseConnections();

      assertThatThrownBy(this::connect).isInstanceOf(ConnectException.class);
      assertThat(roundTrip(open, "still")).as("open connections keep working").isEqualTo("still");

      proxy.acceptConnections();
      try (Socket s = connect()) {
        assertThat(roundTrip(s, "back")).isEqualTo("back");
      }
    }
  }

  @Test
  void halfCloseIsForwarded() throws IOException {
    try (Socket s = connect()) {
      s.getOutputStream().write("bye".getBytes(StandardCharsets.UTF_8));
      s.shutdownOutput();
      assertThat(new String(readFully(s, 3), StandardCharsets.UTF_8)).isEqualTo("bye");
      assertThat(s.getInputStream().read()).as("end of stream").isEqualTo(-1);
    }
    TestTiming.await(
        "the connection is closed", () -> proxy.openConnections() == 0, Duration.ofSeconds(5));
  }

  @Test
  void anUnreachableUpstreamResetsTheClient() throws IOException {
    echo.close();
    try (Socket s = connect()) {
      assertThatThrownBy(
              () -> {
                if (s.getInputStream().read() < 0) {
                  throw new IOException("end of stream");
                }
              })
          .isInstanceOf(IOException.class);
    }
  }

  @Test
  void rejectsANegativeLatency() {
    assertThatThrownBy(() -> proxy.setLatency(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("but was PT-0.001S");
  }
}
