package io.hostloom.wopihost;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.wopihost.WopiHttp.Reply;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The demo door with the {@code native} forwarded-headers strategy (Spring Boot's default under
 * Kubernetes): Tomcat rewrites the client address from {@code X-Forwarded-For} for any loopback or
 * private-network peer. The door must not open for a forwarded request.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "hostloom.backend=memory",
      "wopi-host.token-secret=demo-door-secret-0123456789",
      "wopi-host.demo-tokens=true",
      "server.forward-headers-strategy=native"
    })
@ActiveProfiles("test")
class DemoDoorNativeE2ETest {
  @TempDir static Path docs;

  @DynamicPropertySource
  static void props(DynamicPropertyRegistry r) {
    r.add("wopi-host.docs-dir", () -> docs.toString());
  }

  @LocalServerPort int port;

  @Test
  void aClaimedLoopbackClientBehindAPrivateNetworkProxyGetsNoToken() throws IOException {
    Files.writeString(docs.resolve("n.docx"), "n");
    // Tomcat's RemoteIpValve trusts loopback and private peers as proxies and would take the
    // leftmost address, 127.0.0.1, as the client
    Reply r =
        WopiHttp.get(
            "http://127.0.0.1:" + port + "/api/token?file=n.docx",
            Map.of("X-Forwarded-For", "127.0.0.1, 10.1.2.3"));
    assertThat(r.status()).isEqualTo(403);
  }
}
