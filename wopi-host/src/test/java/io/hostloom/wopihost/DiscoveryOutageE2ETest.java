package io.hostloom.wopihost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.hostloom.wopihost.security.AccessTokens;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A WOPI client whose discovery endpoint accepts the connection, starts an answer and then stalls
 * (held until the test ends). Requests must not queue behind the fetch: with no good copy they fail
 * fast (500, as for any proof that cannot be checked) while the fetch is still stalled. Also: the
 * host refuses to start with a discovery URL that is not https.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "hostloom.backend=memory",
      "wopi-host.token-secret=outage-secret-0123456789",
      "wopi-host.discovery-allow-insecure-localhost=true",
      "wopi-host.discovery-timeout=1s"
    })
@ActiveProfiles("test")
class DiscoveryOutageE2ETest {
  @TempDir static Path docs;
  static final CountDownLatch RELEASE = new CountDownLatch(1);
  static final AtomicInteger FETCHES = new AtomicInteger();
  static final HttpServer STALLING = stallingServer();

  @DynamicPropertySource
  static void props(DynamicPropertyRegistry r) {
    r.add("wopi-host.docs-dir", () -> docs.toString());
    r.add(
        "wopi-host.discovery-url",
        () -> "http://127.0.0.1:" + STALLING.getAddress().getPort() + "/hosting/discovery");
  }

  @AfterAll
  static void stop() {
    RELEASE.countDown();
    STALLING.stop(0);
  }

  @LocalServerPort int port;
  @Autowired AccessTokens tokens;

  @Test
  void parallelRequestsFailFastWhileTheDiscoveryStalls() throws Exception {
    Files.writeString(docs.resolve("o.docx"), "o");
    String token = tokens.issue("alice", "o.docx", Duration.ofHours(1));
    String url = WopiHttp.url("http://127.0.0.1:" + port, "o.docx", "", token);
    List<CompletableFuture<Integer>> replies =
        IntStream.range(0, 4)
            .mapToObj(
                i -> CompletableFuture.supplyAsync(() -> WopiHttp.get(url, Map.of()).status()))
            .toList();
    // bounded wait; queued behind a stalled fetch they would not finish before RELEASE
    CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
    assertThat(replies).allSatisfy(r -> assertThat(r.join()).isEqualTo(500));
    assertThat(FETCHES.get()).isPositive();
    assertThat(RELEASE.getCount()).isEqualTo(1); // the discovery never answered meanwhile
  }

  @Test
  void aPlainHttpDiscoveryIsRefusedAtStartUp() {
    for (String props :
        List.of(
            "wopi-host.discovery-url=http://office.example/hosting/discovery",
            // loopback http needs the explicit switch
            "wopi-host.discovery-url=http://127.0.0.1:9/hosting/discovery",
            "wopi-host.discovery-url=javascript:alert(1)")) {
      SpringApplicationBuilder app =
          new SpringApplicationBuilder(WopiHostApplication.class)
              .profiles("test")
              .properties(
                  "server.port=0",
                  "hostloom.backend=memory",
                  "wopi-host.docs-dir=" + docs.resolve("refused"),
                  props);
      assertThatThrownBy(app::run)
          .as(props)
          .rootCause()
          .hasMessageContaining("wopi-host.discovery-url must be an https URL");
    }
  }

  /** Answers 200 with a promised body of 100 000 bytes, sends 10 of them, then stalls. */
  private static HttpServer stallingServer() {
    try {
      HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      s.setExecutor(Executors.newCachedThreadPool());
      s.createContext(
          "/hosting/discovery",
          ex -> {
            FETCHES.incrementAndGet();
            ex.getResponseHeaders().add("Content-Type", "text/xml");
            ex.sendResponseHeaders(200, 100_000);
            try (OutputStream o = ex.getResponseBody()) {
              o.write("<?xml vers".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
              o.flush();
              RELEASE.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            } catch (IOException e) {
              // the host gave up on this fetch
            }
          });
      s.start();
      return s;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
