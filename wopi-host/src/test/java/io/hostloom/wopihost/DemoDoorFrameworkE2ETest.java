package io.hostloom.wopihost;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.wopihost.WopiHttp.Reply;
import io.hostloom.wopihost.security.AccessTokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The demo door ({@code wopi-host.demo-tokens=true}) over real HTTP, as if the host sat behind a
 * reverse proxy on the same machine: every request comes from 127.0.0.1. With the {@code framework}
 * forwarded-headers strategy the container reports the first {@code X-Forwarded-For} entry as the
 * client; the door must still open only for a direct loopback request to a loopback name.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "hostloom.backend=memory",
      "wopi-host.token-secret=demo-door-secret-0123456789",
      "wopi-host.demo-tokens=true",
      "server.forward-headers-strategy=framework"
    })
@ActiveProfiles("test")
class DemoDoorFrameworkE2ETest {
  @TempDir static Path docs;

  @DynamicPropertySource
  static void props(DynamicPropertyRegistry r) {
    r.add("wopi-host.docs-dir", () -> docs.toString());
  }

  @LocalServerPort int port;
  @Autowired AccessTokens tokens;

  String base;

  @BeforeEach
  void lockedFile() throws IOException {
    base = "http://127.0.0.1:" + port;
    Files.writeString(docs.resolve("d.docx"), "d");
    String t = tokens.issue("alice", "d.docx", Duration.ofHours(1));
    assertThat(new WopiHttp(base).lock("d.docx", t, "door-lock").status()).isEqualTo(200);
  }

  @Test
  void aDirectLoopbackRequestGetsATokenAndSeesLockIds() {
    Reply token = WopiHttp.get(base + "/api/token?file=d.docx&user=bob", Map.of());
    assertThat(token.status()).isEqualTo(200);
    assertThat(token.text()).contains("\"wopiSrc\":\"http://127.0.0.1:" + port + "/wopi/files/");
    assertThat(WopiHttp.get(base + "/api/files", Map.of()).text()).contains("door-lock");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "X-Forwarded-For: 127.0.0.1, 203.0.113.9",
        "X-Forwarded-For: 127.0.0.1",
        "X-Forwarded-Host: localhost",
        "Forwarded: for=127.0.0.1;host=localhost",
        "X-Real-IP: 127.0.0.1"
      })
  void aForwardedRequestGetsNoTokenAndNoLockIds(String header) {
    Map<String, String> h =
        Map.of(header.substring(0, header.indexOf(':')), header.substring(header.indexOf(':') + 2));
    assertThat(WopiHttp.get(base + "/api/token?file=d.docx", h).status()).isEqualTo(403);
    Reply files = WopiHttp.get(base + "/api/files", h); // no user: the door does not count
    assertThat(files.status()).isEqualTo(401);
    assertThat(files.text()).doesNotContain("door-lock");
  }

  @Test
  void aPageFromAnotherSiteReachingThePortByDnsRebindingGetsNoToken() {
    String rebinding = "rebind.attacker.example:" + port;
    assertThat(RawHttp.send(port, "GET", "/api/token?file=d.docx", rebinding, List.of()).status())
        .isEqualTo(403);
    assertThat(RawHttp.send(port, "GET", "/open/d.docx", rebinding, List.of()).status())
        .isEqualTo(401); // not the demo door's user, and no page token
    assertThat(RawHttp.send(port, "GET", "/api/token?file=d.docx", "localhost", List.of()).status())
        .isEqualTo(200);
  }
}
