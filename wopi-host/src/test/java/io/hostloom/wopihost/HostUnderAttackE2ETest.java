package io.hostloom.wopihost;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.wopihost.RawHttp.Answer;
import io.hostloom.wopihost.WopiHttp.Reply;
import io.hostloom.wopihost.security.AccessTokens;
import io.hostloom.wopihost.security.TokenScopes;
import io.hostloom.wopihost.web.Utf7;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
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
 * The host attacked over real HTTP, on default settings (demo door closed) with a public URL, the
 * {@code framework} forwarded-headers strategy, small limits (64 KiB per file, 1 MiB per folder, 2
 * s per upload). Each refused request leaves the documents folder byte-for-byte the same (every
 * file with its modification time), the version and the lock of the test's locked file unchanged.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "hostloom.backend=memory",
      "wopi-host.token-secret=attack-secret-0123456789",
      "wopi-host.public-url=https://wopi.example",
      "server.forward-headers-strategy=framework",
      "wopi-host.max-file-size=64KB",
      "wopi-host.max-folder-size=1MB",
      "wopi-host.max-upload-time=2s"
    })
@ActiveProfiles("test")
class HostUnderAttackE2ETest {
  static final String HELD = "held-lock-1";

  /** Mallory's folder: she may do everything there, and only read and create elsewhere. */
  static final String MINE = "c0000000000000111";

  @TempDir static Path docs;
  @TempDir static Path config;

  @DynamicPropertySource
  static void props(DynamicPropertyRegistry r) {
    r.add("wopi-host.docs-dir", () -> docs.toString());
    r.add(
        "wopi-host.users-file",
        () ->
            TestUsers.usersFile(
                config,
                docs,
                MINE,
                "mallory's",
                "grant mallory root read create",
                "grant mallory " + MINE + " all",
                "grant victor root all"));
  }

  @LocalServerPort int port;
  @Autowired AccessTokens tokens;

  WopiHttp wopi;
  String file;
  String token;
  String victim;

  /** A fresh file locked with {@link #HELD}, and another (unlocked) file the token is not for. */
  @BeforeEach
  void files() throws IOException {
    wopi = new WopiHttp("http://127.0.0.1:" + port);
    String id = UUID.randomUUID().toString();
    file = "mine-" + id + ".docx";
    victim = "victim-" + id + ".docx";
    Files.writeString(docs.resolve(file), "original");
    TestUsers.place(docs, file, MINE);
    Files.writeString(docs.resolve(victim), "the victim's content");
    token = tokens.issue("mallory", file, Duration.ofHours(1));
    assertThat(wopi.lock(file, token, HELD).status()).isEqualTo(200);
  }

  HostSnapshot state() {
    return HostSnapshot.take(wopi, docs, file, token);
  }

  void assertUnchanged(HostSnapshot before) {
    assertThat(before.lock()).isEqualTo(HELD);
    before.assertUnchanged(wopi, docs, file, token);
  }

  /** {@code /api/files} with a page token of mallory's. */
  String pageFiles() {
    return "/api/files?access_token="
        + tokens.issue("mallory", TokenScopes.USER, Duration.ofHours(1));
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static Map<String, String> with(Map<String, String> headers, String name, String value) {
    Map<String, String> h = new HashMap<>(headers);
    h.put(name, value);
    return h;
  }

  /**
   * The expiry inside a token (its payload is {@code v2 \n user \n file \n generation \n expiry}).
   */
  static Instant expiryOf(String token) {
    String payload =
        new String(
            Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))),
            StandardCharsets.UTF_8);
    return Instant.ofEpochSecond(Long.parseLong(payload.split("\n")[4]));
  }

  static String tokenIn(String url) {
    return URLDecoder.decode(
        url.replaceAll(".*[?&]access_token=([^&]*).*", "$1"), StandardCharsets.UTF_8);
  }

  static String jsonField(String json, String name) {
    return json.replaceAll(".*\"" + name + "\":\"([^\"]*)\".*", "$1");
  }

  @Nested
  class ASecondFile {
    @Test
    void anotherExistingFileIsNeverOverwrittenWithATokenForThisOne() {
      HostSnapshot before = state();
      Reply r =
          wopi.putRelative(
              file,
              token,
              Map.of("X-WOPI-RelativeTarget", victim, "X-WOPI-OverwriteRelativeTarget", "true"),
              bytes("replaced"));
      assertThat(r.status()).isEqualTo(409);
      assertThat(r.text()).doesNotContain("access_token");
      assertThat(Utf7.decode(r.header("X-WOPI-ValidRelativeTarget").orElseThrow()))
          .isEqualTo(victim.replace(".docx", " (1).docx"));
      assertUnchanged(before);
    }

    @Test
    void aLockedOtherFileIsRefusedWithoutTellingItsLockId() {
      String victimToken = tokens.issue("victor", victim, Duration.ofHours(1));
      assertThat(wopi.lock(victim, victimToken, "victims-lock").status()).isEqualTo(200);
      HostSnapshot before = state();
      Reply r =
          wopi.putRelative(
              file,
              token,
              Map.of("X-WOPI-RelativeTarget", victim, "X-WOPI-OverwriteRelativeTarget", "true"),
              bytes("replaced"));
      assertThat(r.status()).isEqualTo(409);
      assertThat(r.headers().toString()).doesNotContain("victims-lock");
      assertUnchanged(before);
      assertThat(wopi.getLock(victim, victimToken).header("X-WOPI-Lock")).contains("victims-lock");
    }

    @Test
    void theTokensOwnFileMayBeOverwrittenWhenUnlocked() throws IOException {
      Map<String, String> overwrite =
          Map.of("X-WOPI-RelativeTarget", file, "X-WOPI-OverwriteRelativeTarget", "true");
      assertThat(wopi.putRelative(file, token, overwrite, bytes("new")).status()).isEqualTo(409);
      assertThat(wopi.unlock(file, token, HELD).status()).isEqualTo(200);
      assertThat(wopi.putRelative(file, token, overwrite, bytes("new")).status()).isEqualTo(200);
      assertThat(Files.readString(docs.resolve(file))).isEqualTo("new");
    }

    @Test
    void renamingToTheNameOfAnotherFileIsRefused() {
      HostSnapshot before = state();
      Reply r = wopi.rename(file, token, HELD, victim.replace(".docx", ""));
      assertThat(r.status()).isEqualTo(400);
      assertThat(r.header("X-WOPI-InvalidFileNameError")).isPresent();
      assertUnchanged(before);
    }
  }

  @Nested
  class MintedTokens {
    @Test
    void theFileUrlTokenExpiresNoLaterThanTheTokenItWasMintedFrom() {
      String shortLived = tokens.issue("mallory", file, Duration.ofMinutes(2));
      Reply info = wopi.checkFileInfo(file, shortLived);
      String minted = tokenIn(jsonField(info.text(), "FileUrl"));
      assertThat(expiryOf(minted)).isBeforeOrEqualTo(expiryOf(shortLived));
      // and it cannot mint again: a FileUrl token opens the download only
      assertThat(wopi.checkFileInfo(file, minted).status()).isEqualTo(401);
    }

    @Test
    void thePutRelativeFileUrlTokenExpiresNoLaterThanTheTokenItWasMintedFrom() {
      String shortLived = tokens.issue("mallory", file, Duration.ofMinutes(2));
      Reply r =
          wopi.putRelative(
              file, shortLived, Map.of("X-WOPI-SuggestedTarget", ".txt"), bytes("copy"));
      assertThat(r.status()).isEqualTo(200);
      String url = jsonField(r.text(), "Url");
      assertThat(expiryOf(tokenIn(url))).isBeforeOrEqualTo(expiryOf(shortLived));
    }

    @Test
    void urlsHandedToClientsComeFromThePublicUrlNotFromForwardedHeaders() {
      Reply info =
          WopiHttp.get(
              WopiHttp.url(wopi.base(), file, "", token),
              Map.of("X-Forwarded-Host", "evil.example", "X-Forwarded-Proto", "http"));
      assertThat(jsonField(info.text(), "FileUrl")).startsWith("https://wopi.example/download/");
      Reply r =
          WopiHttp.post(
              WopiHttp.url(wopi.base(), file, "", token),
              Map.of(
                  "X-WOPI-Override",
                  "PUT_RELATIVE",
                  "X-WOPI-SuggestedTarget",
                  ".txt",
                  "X-Forwarded-Host",
                  "evil.example"),
              bytes("copy"));
      assertThat(jsonField(r.text(), "Url")).startsWith("https://wopi.example/wopi/files/");
    }
  }

  @Nested
  class Bodies {
    @ParameterizedTest(name = "{0}")
    @ValueSource(
        strings = {
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=xyz",
          "text/plain"
        })
    void aPutFileBodyIsStoredByteForByteWhateverItsContentType(String contentType)
        throws IOException {
      byte[] body =
          bytes(
              "--xyz\r\nContent-Disposition: form-data; name=\"access_token\"\r\n\r\nx\r\n"
                  + "--xyz--\r\na=b&access_token=x");
      Reply r =
          WopiHttp.post(
              WopiHttp.url(wopi.base(), file, "/contents", token),
              Map.of("X-WOPI-Override", "PUT", "X-WOPI-Lock", HELD, "Content-Type", contentType),
              body);
      assertThat(r.status()).isEqualTo(200);
      assertThat(Files.readAllBytes(docs.resolve(file))).isEqualTo(body);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"application/x-www-form-urlencoded", "multipart/form-data; boundary=b"})
    void aPutRelativeFileBodyIsStoredByteForByteWhateverItsContentType(String contentType)
        throws IOException {
      byte[] body = bytes("--b\r\n\r\nk=v&w=z\r\n--b--\r\n");
      Reply r =
          WopiHttp.post(
              WopiHttp.url(wopi.base(), file, "", token),
              Map.of(
                  "X-WOPI-Override",
                  "PUT_RELATIVE",
                  "X-WOPI-RelativeTarget",
                  "copy-" + UUID.randomUUID() + ".txt",
                  "Content-Type",
                  contentType),
              body);
      assertThat(r.status()).isEqualTo(200);
      assertThat(Files.readAllBytes(docs.resolve(jsonField(r.text(), "Name")))).isEqualTo(body);
    }

    @Test
    void aTokenInAFormBodyIsNotAToken() {
      HostSnapshot before = state();
      String url = wopi.base() + "/wopi/files/" + file + "/contents";
      Reply r =
          WopiHttp.post(
              url,
              Map.of(
                  "X-WOPI-Override",
                  "PUT",
                  "X-WOPI-Lock",
                  HELD,
                  "Content-Type",
                  "application/x-www-form-urlencoded"),
              bytes("access_token=" + token));
      assertThat(r.status()).isEqualTo(401);
      assertUnchanged(before);
    }

    @Test
    void withoutATokenTheBodyIsNeverAwaited() {
      HostSnapshot before = state();
      // 13 of 1000 announced bytes are sent, then the sender stalls: the answer must not wait
      Answer a =
          RawHttp.partialBody(
              port,
              "POST",
              "/wopi/files/" + file + "/contents",
              List.of(
                  Map.entry("X-WOPI-Override", "PUT"),
                  Map.entry("X-WOPI-Lock", HELD),
                  Map.entry("Content-Type", "application/x-www-form-urlencoded")),
              1000,
              out -> {
                out.write(bytes("access_token="));
                out.flush();
              });
      assertThat(a.status()).isEqualTo(401);
      assertUnchanged(before);
    }

    @Test
    void aBodyTricklingInLongerThanTheUploadTimeLimitIs408AndWritesNothing() {
      HostSnapshot before = state();
      // one byte every 100 ms of an announced 60 000: it would take 100 minutes
      Answer a =
          RawHttp.partialBody(
              port,
              "POST",
              "/wopi/files/" + file + "/contents?access_token=" + token,
              List.of(Map.entry("X-WOPI-Override", "PUT"), Map.entry("X-WOPI-Lock", HELD)),
              60_000,
              out -> {
                for (int i = 0; i < 60_000; i++) {
                  out.write('x');
                  out.flush();
                  Thread.sleep(100);
                }
              });
      assertThat(a.status()).isEqualTo(408);
      assertUnchanged(before);
    }
  }

  @Nested
  class DemoDoorClosedByDefault {
    @Test
    void noTokensAreHandedOut() {
      String base = wopi.base();
      assertThat(WopiHttp.get(base + "/api/token?file=" + file, Map.of()).status()).isEqualTo(404);
      assertThat(WopiHttp.get(base + "/open/" + file, Map.of()).status()).isEqualTo(401);
    }

    @Test
    void theFileListShowsLockStatesButNoLockIdsNoFolderNoClient() {
      assertThat(WopiHttp.get(wopi.base() + "/api/files", Map.of()).status()).isEqualTo(401);
      Reply r = WopiHttp.get(wopi.base() + pageFiles(), Map.of());
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.text())
          .contains("\"id\":\"" + file + "\"")
          .contains("\"expiresInSeconds\"")
          .contains("\"lockId\":null")
          .contains("\"folder\":null")
          .doesNotContain(HELD)
          .doesNotContain(docs.toString());
    }
  }

  @Nested
  class Names {
    @Test
    void aLoneSurrogateInUtf7IsABadRequest() {
      HostSnapshot before = state();
      assertThat(wopi.rename(file, token, HELD, "+2AA-").status()).isEqualTo(400);
      assertThat(
              wopi.putRelative(
                      file, token, Map.of("X-WOPI-RelativeTarget", "x+2AA-.txt"), bytes("x"))
                  .status())
          .isEqualTo(400);
      assertUnchanged(before);
    }

    @Test
    void aNameOver255BytesIsABadRequest() {
      HostSnapshot before = state();
      String longName = Utf7.encode("\u00e9".repeat(130) + ".txt"); // 264 bytes of UTF-8
      for (String header : List.of("X-WOPI-RelativeTarget", "X-WOPI-SuggestedTarget")) {
        Reply r = wopi.putRelative(file, token, Map.of(header, longName), bytes("x"));
        assertThat(r.status()).as(header).isEqualTo(400);
      }
      assertThat(wopi.rename(file, token, HELD, Utf7.encode("\u00e9".repeat(130))).status())
          .isEqualTo(400);
      assertUnchanged(before);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
        strings = {
          "report\u202Excod.exe",
          "a\u2066b.txt",
          "zero\u200Bwidth.txt",
          "CON",
          "con.txt",
          "NUL.docx",
          "LPT1.txt",
          "COM9"
        })
    void misleadingAndReservedNamesAreBadRequests(String name) {
      HostSnapshot before = state();
      Reply relative =
          wopi.putRelative(
              file, token, Map.of("X-WOPI-RelativeTarget", Utf7.encode(name)), bytes("x"));
      assertThat(relative.status()).isEqualTo(400);
      String stem = name.contains(".") ? name.substring(0, name.indexOf('.')) : name;
      assertThat(wopi.rename(file, token, HELD, Utf7.encode(stem)).status()).isEqualTo(400);
      assertUnchanged(before);
    }

    @Test
    void aSuggestedFreeNameIsSentUtf7Encoded() throws IOException {
      String taken = "\u540d\u524d-" + UUID.randomUUID() + ".docx";
      Files.writeString(docs.resolve(taken), "taken");
      HostSnapshot before = state();
      Reply r =
          wopi.putRelative(
              file, token, Map.of("X-WOPI-RelativeTarget", Utf7.encode(taken)), bytes("x"));
      assertThat(r.status()).isEqualTo(409);
      String header = r.header("X-WOPI-ValidRelativeTarget").orElseThrow();
      assertThat(header).matches("[\\x20-\\x7e]+");
      assertThat(Utf7.decode(header)).isEqualTo(taken.replace(".docx", " (1).docx"));
      assertUnchanged(before);
    }
  }

  @Nested
  class Health {
    @Test
    void healthShowsNoDetailsToAnonymousCallers() {
      Reply r = WopiHttp.get(wopi.base() + "/actuator/health", Map.of());
      assertThat(r.status()).isEqualTo(200);
      // Boot 4 also lists the probe group names ("groups"), which are not details
      assertThat(r.text())
          .contains("\"status\":\"UP\"")
          .doesNotContain("components")
          .doesNotContain("details")
          .doesNotContain("diskSpace")
          .doesNotContain(docs.getFileName().toString());
    }

    @Test
    void theReadinessProbeStillAnswers() {
      Reply r = WopiHttp.get(wopi.base() + "/actuator/health/readiness", Map.of());
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.text()).isEqualTo("{\"status\":\"UP\"}");
    }
  }

  @Nested
  class FolderQuota {
    @Test
    void uploadsThatWouldFillTheFolderPastItsLimitAre507AndWriteNothing() throws IOException {
      long used;
      try (Stream<Path> list = Files.list(docs)) {
        used =
            list.filter(p -> !p.getFileName().toString().startsWith("."))
                .filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                .mapToLong(p -> p.toFile().length())
                .sum();
      }
      Path filler = docs.resolve("filler-" + UUID.randomUUID() + ".bin");
      Files.write(filler, new byte[(int) (1024 * 1024 - used - 30 * 1024)]); // 30 KiB left
      try {
        HostSnapshot before = state();
        byte[] big = new byte[40 * 1024];
        Reply relative =
            wopi.putRelative(file, token, Map.of("X-WOPI-SuggestedTarget", ".bin"), big);
        assertThat(relative.status()).isEqualTo(507);
        assertThat(wopi.putFile(file, token, HELD, big).status()).isEqualTo(507);
        assertUnchanged(before);
        // what fits is still accepted
        byte[] small = new byte[10 * 1024];
        assertThat(wopi.putFile(file, token, HELD, small).status()).isEqualTo(200);
      } finally {
        Files.delete(filler);
      }
    }
  }

  @Nested
  class HostHeader {
    @Test
    void aRequestForAnotherHostIsRefused() {
      HostSnapshot before = state();
      String rebinding = "rebind.attacker.example:" + port;
      assertThat(RawHttp.send(port, "GET", "/api/files", rebinding, List.of()).status())
          .isEqualTo(421);
      Answer unlock =
          RawHttp.send(
              port,
              "POST",
              "/wopi/files/" + file + "?access_token=" + token,
              rebinding,
              List.of(Map.entry("X-WOPI-Override", "UNLOCK"), Map.entry("X-WOPI-Lock", HELD)));
      assertThat(unlock.status()).isEqualTo(421);
      assertUnchanged(before);
    }

    @Test
    void thePublicHostAndLoopbackAreServedAndProbesAnswerAnyHost() {
      assertThat(RawHttp.send(port, "GET", pageFiles(), "wopi.example", List.of()).status())
          .isEqualTo(200);
      assertThat(RawHttp.send(port, "GET", pageFiles(), "WOPI.example:443", List.of()).status())
          .isEqualTo(200);
      assertThat(RawHttp.send(port, "GET", pageFiles(), "localhost:1", List.of()).status())
          .isEqualTo(200);
      assertThat(
              RawHttp.send(port, "GET", "/actuator/health/readiness", "10.0.0.7:8080", List.of())
                  .status())
          .isEqualTo(200);
    }
  }

  @Nested
  class SecurityHeaders {
    @Test
    void thePageAndItsDataCarryCspNosniffAndFrameOptions() {
      for (String path : List.of("/", "/app.js", pageFiles())) {
        Reply r = WopiHttp.get(wopi.base() + path, Map.of());
        assertThat(r.status()).as(path).isEqualTo(200);
        assertThat(r.header("Content-Security-Policy").orElseThrow())
            .contains("default-src 'self'")
            .contains("frame-ancestors 'none'")
            .doesNotContain("unsafe-inline");
        assertThat(r.header("X-Content-Type-Options")).contains("nosniff");
        assertThat(r.header("X-Frame-Options")).contains("DENY");
      }
    }
  }
}
