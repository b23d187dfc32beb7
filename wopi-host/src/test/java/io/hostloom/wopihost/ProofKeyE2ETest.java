package io.hostloom.wopihost;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.hostloom.wopihost.WopiHttp.Reply;
import io.hostloom.wopihost.security.AccessTokens;
import io.hostloom.wopihost.security.ProofKeys;
import io.hostloom.wopihost.security.ProofSigner;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * With a WOPI client's discovery configured, every WOPI request must carry valid proof keys. The
 * test plays the WOPI client: it generates two RSA key pairs, serves a discovery XML with them from
 * a local HTTP server, and signs its requests.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "hostloom.backend=memory",
      "wopi-host.token-secret=proof-secret-0123456789",
      "wopi-host.demo-tokens=true",
      "wopi-host.discovery-allow-insecure-localhost=true" // the test's discovery server is http
    })
@ActiveProfiles("test")
@ExtendWith(OutputCaptureExtension.class)
class ProofKeyE2ETest {
  @TempDir static Path docs;
  static final KeyPair CURRENT = generate();
  static final KeyPair OLD = generate();
  static final HttpServer CLIENT = discoveryServer();

  @DynamicPropertySource
  static void props(DynamicPropertyRegistry r) {
    r.add("wopi-host.docs-dir", () -> docs.toString());
    r.add(
        "wopi-host.discovery-url",
        () -> "http://127.0.0.1:" + CLIENT.getAddress().getPort() + "/hosting/discovery");
  }

  @AfterAll
  static void stop() {
    CLIENT.stop(0);
  }

  @LocalServerPort int port;
  @Autowired AccessTokens tokens;
  String token;
  String url;

  @BeforeEach
  void file() throws IOException {
    Files.writeString(docs.resolve("p.docx"), "p");
    token = tokens.issue("alice", "p.docx", Duration.ofHours(1));
    url = WopiHttp.url("http://127.0.0.1:" + port, "p.docx", "", token);
  }

  static Map<String, String> proof(KeyPair proofKey, KeyPair oldProofKey, String url, Instant at) {
    long ticks = ProofKeys.toTicks(at);
    Map<String, String> h = new LinkedHashMap<>();
    h.put("X-WOPI-TimeStamp", Long.toString(ticks));
    h.put("X-WOPI-Proof", ProofSigner.sign(proofKey, tokenOf(url), url, ticks));
    if (oldProofKey != null) {
      h.put("X-WOPI-ProofOld", ProofSigner.sign(oldProofKey, tokenOf(url), url, ticks));
    }
    return h;
  }

  static String tokenOf(String url) {
    return java.net.URLDecoder.decode(
        url.substring(url.indexOf("access_token=") + 13), StandardCharsets.UTF_8);
  }

  @Test
  void aCorrectlySignedRequestIsServed() {
    Reply r = WopiHttp.get(url, proof(CURRENT, OLD, url, Instant.now()));
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.text()).contains("\"BaseFileName\":\"p.docx\"");
  }

  @Test
  void aRequestSignedWithTheOldKeyIsServed() {
    assertThat(WopiHttp.get(url, proof(OLD, null, url, Instant.now())).status()).isEqualTo(200);
  }

  @Test
  void unsignedWronglySignedStaleOrReplayedElsewhereRequestsAre500() {
    KeyPair stranger = generate();
    assertThat(WopiHttp.get(url, Map.of()).status()).isEqualTo(500);
    assertThat(WopiHttp.get(url, proof(stranger, null, url, Instant.now())).status())
        .isEqualTo(500);
    assertThat(
            WopiHttp.get(url, proof(CURRENT, null, url, Instant.now().minusSeconds(21 * 60)))
                .status())
        .isEqualTo(500);
    String lockUrl = url; // a proof made for GET CheckFileInfo replayed on the contents URL
    String contents = WopiHttp.url("http://127.0.0.1:" + port, "p.docx", "/contents", token);
    assertThat(WopiHttp.get(contents, proof(CURRENT, null, lockUrl, Instant.now())).status())
        .isEqualTo(500);
  }

  @Test
  void aProofIsAcceptedOnceAndRefusedWhenReplayed() {
    Map<String, String> signed = proof(CURRENT, OLD, url, Instant.now());
    assertThat(WopiHttp.get(url, signed).status()).isEqualTo(200);
    assertThat(WopiHttp.get(url, signed).status()).isEqualTo(500);
    // the same captured proof for another operation on the same URL
    Map<String, String> lock = new LinkedHashMap<>(signed);
    lock.put("X-WOPI-Override", "LOCK");
    lock.put("X-WOPI-Lock", "replayed");
    assertThat(WopiHttp.post(url, lock, new byte[0]).status()).isEqualTo(500);
    // without the old proof, or signed by the old key: still the same signed request
    Map<String, String> oldKey = proof(OLD, null, url, Instant.now());
    assertThat(WopiHttp.get(url, oldKey).status()).isEqualTo(200);
    assertThat(WopiHttp.get(url, oldKey).status()).isEqualTo(500);
    // a fresh proof is served
    assertThat(WopiHttp.get(url, proof(CURRENT, OLD, url, Instant.now())).status()).isEqualTo(200);
  }

  @Test
  void lockOperationsAreCheckedToo() {
    Map<String, String> h = new LinkedHashMap<>(proof(CURRENT, null, url, Instant.now()));
    h.put("X-WOPI-Override", "LOCK");
    h.put("X-WOPI-Lock", "L");
    assertThat(WopiHttp.post(url, h, new byte[0]).status()).isEqualTo(200);
    Map<String, String> unsigned = Map.of("X-WOPI-Override", "UNLOCK", "X-WOPI-Lock", "L");
    assertThat(WopiHttp.post(url, unsigned, new byte[0]).status()).isEqualTo(500);
  }

  @Test
  void aProofDatedBeyondTheClockSkewIsRefusedOneWithinIsServed() {
    Instant ahead = Instant.now().plus(ProofKeys.MAX_CLOCK_SKEW).plusSeconds(60);
    assertThat(WopiHttp.get(url, proof(CURRENT, null, url, ahead)).status()).isEqualTo(500);
    Instant slightlyAhead = Instant.now().plusSeconds(30);
    assertThat(WopiHttp.get(url, proof(CURRENT, null, url, slightlyAhead)).status()).isEqualTo(200);
  }

  @Test
  void aRejectedRequestIsLoggedWithoutItsAccessToken(CapturedOutput output) {
    assertThat(WopiHttp.get(url, Map.of()).status()).isEqualTo(500);
    assertThat(output.getAll())
        .contains("Rejected WOPI request GET")
        .contains("access_token=REDACTED")
        .doesNotContain(token)
        .doesNotContain(tokenOf(url).substring(0, 20));
  }

  @Test
  void aJavascriptActionFromTheDiscoveryIsNeverOffered() throws IOException {
    Files.writeString(docs.resolve("p.txt"), "t");
    Reply files = WopiHttp.get("http://127.0.0.1:" + port + "/api/files", Map.of());
    assertThat(files.text()).contains("\"id\":\"p.txt\"").doesNotContain("open/p.txt");
    Reply open = WopiHttp.get("http://127.0.0.1:" + port + "/open/p.txt", Map.of());
    assertThat(open.status()).isEqualTo(404);
    assertThat(open.text()).doesNotContain("javascript:");
  }

  @Test
  void theOpenPageMayPostAndFrameOnlyTheClientsOrigin() {
    Reply open = WopiHttp.get("http://127.0.0.1:" + port + "/open/p.docx", Map.of());
    assertThat(open.status()).isEqualTo(200);
    String csp = open.header("Content-Security-Policy").orElseThrow();
    assertThat(csp)
        .contains("form-action https://office.example;")
        .contains("frame-src https://office.example;")
        .contains("frame-ancestors 'none'")
        .contains("script-src 'nonce-");
    String nonce = csp.replaceAll(".*script-src 'nonce-([^']+)'.*", "$1");
    assertThat(open.text()).contains("<script nonce=\"" + nonce + "\">");
    assertThat(open.header("X-Frame-Options")).contains("DENY");
  }

  @Test
  void theTokenIsCheckedBeforeTheProof() {
    String bad = WopiHttp.url("http://127.0.0.1:" + port, "p.docx", "", "forged");
    assertThat(WopiHttp.get(bad, proof(CURRENT, null, bad, Instant.now())).status()).isEqualTo(401);
  }

  @Test
  void thePageOffersAnOpenLinkFromTheDiscovery() {
    Reply files = WopiHttp.get("http://127.0.0.1:" + port + "/api/files", Map.of());
    assertThat(files.text()).contains("\"openUrl\":\"open/p.docx\"");
    Reply open = WopiHttp.get("http://127.0.0.1:" + port + "/open/p.docx", Map.of());
    assertThat(open.status()).isEqualTo(200);
    assertThat(open.text())
        .contains("/we/wordeditorframe.aspx?WOPISrc=http%3A%2F%2F127.0.0.1%3A" + port)
        .contains("name=\"access_token\"");
  }

  static KeyPair generate() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
      g.initialize(2048);
      return g.generateKeyPair();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void theFileUrlIsFetchedWithoutProofWhileTheWopiEndpointsNeedOne() {
    Reply info = WopiHttp.get(url, proof(CURRENT, OLD, url, Instant.now()));
    assertThat(info.status()).isEqualTo(200);
    String fileUrl = TokensE2ETest.fileUrl(info);
    Reply download = WopiHttp.get(fileUrl, Map.of()); // WOPI clients never sign it
    assertThat(download.status()).isEqualTo(200);
    assertThat(download.text()).isEqualTo("p");
    String getFile = WopiHttp.url("http://127.0.0.1:" + port, "p.docx", "/contents", token);
    assertThat(WopiHttp.get(getFile, Map.of()).status()).isEqualTo(500); // GetFile still is
  }

  private static HttpServer discoveryServer() {
    try {
      HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      byte[] xml =
          ProofSigner.discoveryXml(CURRENT, OLD, "https://office.example")
              // a hostile or broken discovery: its action would run script on the host's page
              .replace(
                  "</net-zone>",
                  "<app name=\"Evil\"><action name=\"edit\" ext=\"txt\""
                      + " urlsrc=\"javascript:alert(document.domain)//?\"/></app></net-zone>")
              .getBytes(StandardCharsets.UTF_8);
      s.createContext(
          "/hosting/discovery",
          ex -> {
            ex.getResponseHeaders().add("Content-Type", "text/xml");
            ex.sendResponseHeaders(200, xml.length);
            try (OutputStream o = ex.getResponseBody()) {
              o.write(xml);
            }
          });
      s.start();
      return s;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
