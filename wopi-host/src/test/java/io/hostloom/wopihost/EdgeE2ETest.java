package io.hostloom.wopihost;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.wopihost.security.AccessTokens;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The connection-level edge over raw sockets (keep-alive requests, as WOPI clients send them): form
 * bodies are never read before routing and the token check, an answer given before the body was
 * read closes the connection instead of swallowing the rest of the body, and a client that sends
 * its headers slowly is cut off. Small limits: 2 s for headers, 2 s per upload.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "hostloom.backend=memory",
      "wopi-host.token-secret=edge-secret-0123456789",
      "wopi-host.max-header-time=2s",
      "wopi-host.max-upload-time=2s"
    })
@ActiveProfiles("test")
class EdgeE2ETest {
  static final String HELD = "edge-lock";

  @TempDir static Path docs;

  @DynamicPropertySource
  static void props(DynamicPropertyRegistry r) {
    r.add("wopi-host.docs-dir", () -> docs.toString());
  }

  @LocalServerPort int port;
  @Autowired AccessTokens tokens;

  String file;
  String token;

  @BeforeEach
  void lockedFile() throws IOException {
    file = "edge-" + UUID.randomUUID() + ".docx";
    Files.writeString(docs.resolve(file), "original");
    token = tokens.issue("alice", file, Duration.ofHours(1));
    assertThat(new WopiHttp("http://127.0.0.1:" + port).lock(file, token, HELD).status())
        .isEqualTo(200);
  }

  /**
   * Spring's FormContentFilter would read these 64 MiB into memory before any routing; the answer
   * must come while nearly all of them are still owed.
   */
  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "PUT, /wopi/files/x.docx/contents",
    "PUT, /",
    "PATCH, /api/files",
    "DELETE, /wopi/files/x.docx",
    "PUT, /nowhere",
    "POST, /api/token?file=x.docx"
  })
  void aLargeFormBodyWithoutATokenIsNeverRead(String method, String path) throws IOException {
    try (Conn c = new Conn(port)) {
      c.send(
          method
              + " "
              + path
              + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
              + "Content-Type: application/x-www-form-urlencoded\r\n"
              + "Content-Length: "
              + (64L << 20)
              + "\r\n\r\na=b&c=d");
      String head = c.readHead();
      assertThat(head).as("an answer while the body is owed").startsWith("HTTP/1.1 4");
      assertThat(c.closesWhileTrickling()).as("closed instead of swallowing").isTrue();
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "401 without a token, /contents, false, " + HELD,
    "404 for a missing file, /contents, true, " + HELD,
    "409 lock mismatch, /contents, true, other-lock"
  })
  void anEarlyAnswerClosesTheConnectionInsteadOfSwallowingTheBody(
      String name, String suffix, boolean withToken, String lock) throws IOException {
    String target = name.startsWith("404") ? "missing-" + UUID.randomUUID() + ".docx" : file;
    String t = tokens.issue("alice", target, Duration.ofHours(1));
    try (Conn c = new Conn(port)) {
      c.send(
          "POST /wopi/files/"
              + target
              + suffix
              + (withToken ? "?access_token=" + t : "")
              + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-WOPI-Override: PUT\r\nX-WOPI-Lock: "
              + lock
              + "\r\nContent-Length: 1000000\r\n\r\nfirst bytes");
      assertThat(c.readHead()).startsWith("HTTP/1.1 " + name.substring(0, 3));
      assertThat(c.closesWhileTrickling()).isTrue();
    }
  }

  @Test
  void the408ThatPromisesConnectionCloseClosesIt() throws IOException {
    try (Conn c = new Conn(port)) {
      c.send(
          "POST /wopi/files/"
              + file
              + "/contents?access_token="
              + token
              + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-WOPI-Override: PUT\r\nX-WOPI-Lock: "
              + HELD
              + "\r\nContent-Length: 1000000\r\n\r\n");
      // a byte every 50 ms: the 2 s upload limit passes long before the body would be complete
      String head = c.readHeadWhileTrickling();
      assertThat(head).startsWith("HTTP/1.1 408").containsIgnoringCase("Connection: close");
      assertThat(c.closesWhileTrickling()).isTrue();
    }
    assertThat(Files.readString(docs.resolve(file))).isEqualTo("original");
  }

  @Test
  void aTricklingPutUserInfoBodyIsCutOffAtTheUploadLimitToo() throws IOException {
    try (Conn c = new Conn(port)) {
      c.send(
          "POST /wopi/files/"
              + file
              + "?access_token="
              + token
              + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-WOPI-Override: PUT_USER_INFO\r\n"
              + "Content-Length: 4000\r\n\r\n");
      // a byte every 50 ms: 200 s for the whole body, far beyond the 2 s upload limit
      assertThat(c.readHeadWhileTrickling()).startsWith("HTTP/1.1 408");
    }
  }

  @Test
  void aSmallRefusedBodyThatHasArrivedKeepsTheConnectionAlive() throws IOException {
    try (Conn c = new Conn(port)) {
      String put =
          "POST /wopi/files/"
              + file
              + "/contents?access_token="
              + token
              + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-WOPI-Override: PUT\r\nX-WOPI-Lock: wrong\r\n"
              + "Content-Length: 5\r\n\r\nhello";
      c.send(put);
      assertThat(c.readHead()).startsWith("HTTP/1.1 409").doesNotContainIgnoringCase("close");
      c.send(put); // the same connection serves the next request
      assertThat(c.readHead()).startsWith("HTTP/1.1 409");
    }
  }

  @Test
  void aClientSendingItsHeadersSlowlyIsCutOff() throws IOException {
    try (Conn c = new Conn(port)) {
      c.send("GET /api/files HTTP/1.1\r\nHost: 127.0.0.1\r\n");
      // a header line every 250 ms, each read well within the 20 s read timeout: 30 s of headers
      boolean closed = false;
      for (int i = 0; i < 120 && !closed; i++) {
        try {
          c.send("X-Slow-" + i + ": 1\r\n");
          closed = c.closedWithin(250);
        } catch (IOException e) {
          closed = true; // the host closed: the write was refused
        }
      }
      assertThat(closed).as("closed before the 30 s of headers were sent").isTrue();
    }
  }

  /** One keep-alive connection to the host. */
  static final class Conn implements AutoCloseable {
    final Socket socket = new Socket();
    final OutputStream out;
    final InputStream in;

    Conn(int port) throws IOException {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
      socket.setSoTimeout(15_000);
      out = socket.getOutputStream();
      in = socket.getInputStream();
    }

    void send(String text) throws IOException {
      out.write(text.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
    }

    /** The answer's head (and its body, when it announces a short one); fails after 15 s. */
    String readHead() throws IOException {
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      int matched = 0;
      while (matched < 4) {
        int b = in.read();
        if (b < 0) {
          throw new IOException("closed before an answer: " + head);
        }
        head.write(b);
        matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
      }
      String text = head.toString(StandardCharsets.ISO_8859_1);
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("(?i)\r\ncontent-length: *(\\d+)").matcher(text);
      if (m.find()) {
        in.readNBytes(Integer.parseInt(m.group(1)));
      }
      return text;
    }

    /** The head read while a byte of body is sent every 50 ms from another thread. */
    String readHeadWhileTrickling() throws IOException {
      Thread t = trickle();
      try {
        return readHead();
      } finally {
        t.interrupt();
      }
    }

    /**
     * Whether the host closes the connection (end of stream or reset), the rest of its answer read
     * and discarded, within 15 s of silence while a byte of the owed body is sent every 50 ms: a
     * host swallowing the body would keep reading it.
     */
    boolean closesWhileTrickling() throws IOException {
      Thread t = trickle();
      try {
        byte[] rest = new byte[8192];
        while (in.read(rest) >= 0) {
          // the rest of the answer (an error body, chunked)
        }
        return true;
      } catch (SocketTimeoutException e) {
        return false;
      } catch (SocketException e) {
        return true; // reset: the host closed with body bytes unread
      } finally {
        t.interrupt();
      }
    }

    /** Whether the host closed the connection, waiting at most {@code millis}. */
    boolean closedWithin(int millis) throws IOException {
      socket.setSoTimeout(millis);
      try {
        return in.read() < 0;
      } catch (SocketTimeoutException e) {
        return false;
      } catch (SocketException e) {
        return true;
      }
    }

    private Thread trickle() {
      Thread t =
          new Thread(
              () -> {
                try {
                  while (!Thread.currentThread().isInterrupted()) {
                    out.write('x');
                    out.flush();
                    Thread.sleep(50);
                  }
                } catch (IOException | InterruptedException e) {
                  // closed by the host, or the test is done
                }
              },
              "trickle");
      t.setDaemon(true);
      t.start();
      return t;
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
