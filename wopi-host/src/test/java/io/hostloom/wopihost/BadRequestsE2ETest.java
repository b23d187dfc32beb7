package io.hostloom.wopihost;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.wopihost.RawHttp.Answer;
import io.hostloom.wopihost.WopiHttp.Reply;
import io.hostloom.wopihost.security.AccessTokens;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Malformed WOPI requests over real HTTP: repeated headers, headers over the size limits and bodies
 * over {@code wopi-host.max-file-size} (64 KiB here). Each gets a 4xx, and afterwards the documents
 * folder is byte-for-byte the same (every file, including the host's {@code .wopi} folder with its
 * temporary files, with the same modification times), the version the host reports is the same, and
 * the file is still locked by the same lock id.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "hostloom.backend=memory",
      "wopi-host.token-secret=bad-input-secret-0123456789",
      "wopi-host.max-file-size=64KB"
    })
@ActiveProfiles("test")
class BadRequestsE2ETest {
  static final int LIMIT = 64 * 1024;
  static final String HELD = "held-lock-1";

  @TempDir static Path docs;

  @DynamicPropertySource
  static void props(DynamicPropertyRegistry r) {
    r.add("wopi-host.docs-dir", () -> docs.toString());
  }

  @LocalServerPort int port;
  @Autowired AccessTokens tokens;

  WopiHttp wopi;
  String file;
  String token;

  /** A fresh file, locked with {@link #HELD}. */
  @BeforeEach
  void lockedFile() throws IOException {
    wopi = new WopiHttp("http://127.0.0.1:" + port);
    file = "bad-" + UUID.randomUUID() + ".docx";
    Files.write(docs.resolve(file), "original".getBytes(StandardCharsets.UTF_8));
    token = tokens.issue("alice", file, Duration.ofHours(1));
    assertThat(wopi.lock(file, token, HELD).status()).isEqualTo(200);
  }

  HostSnapshot state() {
    return HostSnapshot.take(wopi, docs, file, token);
  }

  void assertUnchanged(HostSnapshot before) {
    assertThat(before.lock()).isEqualTo(HELD);
    before.assertUnchanged(wopi, docs, file, token);
  }

  String query() {
    return "?access_token=" + URLEncoder.encode(token, StandardCharsets.UTF_8);
  }

  // ---- repeated headers -------------------------------------------------------------------

  static Stream<Arguments> repeatedHeaders() {
    return Stream.of(
        // without the rule the first value would unlock the file
        Arguments.of(
            "",
            "X-WOPI-Lock",
            List.of(
                Map.entry("X-WOPI-Override", "UNLOCK"),
                Map.entry("X-WOPI-Lock", HELD),
                Map.entry("X-WOPI-Lock", "other"))),
        // identical values are refused too: the rule is about the header, not the values
        Arguments.of(
            "",
            "X-WOPI-Lock",
            List.of(
                Map.entry("X-WOPI-Override", "REFRESH_LOCK"),
                Map.entry("X-WOPI-Lock", HELD),
                Map.entry("X-WOPI-Lock", HELD))),
        // UnlockAndRelock with two old locks: the first would swap the lock
        Arguments.of(
            "",
            "X-WOPI-OldLock",
            List.of(
                Map.entry("X-WOPI-Override", "LOCK"),
                Map.entry("X-WOPI-Lock", "new-lock"),
                Map.entry("X-WOPI-OldLock", HELD),
                Map.entry("X-WOPI-OldLock", "other"))),
        // two operations in one request
        Arguments.of(
            "",
            "X-WOPI-Override",
            List.of(
                Map.entry("X-WOPI-Override", "UNLOCK"),
                Map.entry("X-WOPI-Override", "GET_LOCK"),
                Map.entry("X-WOPI-Lock", HELD))),
        Arguments.of(
            "",
            "X-WOPI-Override",
            List.of(
                Map.entry("X-WOPI-Override", "DELETE"), Map.entry("X-WOPI-Override", "DELETE"))),
        // PutFile: the lock matches, but twice
        Arguments.of(
            "/contents",
            "X-WOPI-Lock",
            List.of(
                Map.entry("X-WOPI-Override", "PUT"),
                Map.entry("X-WOPI-Lock", HELD),
                Map.entry("X-WOPI-Lock", HELD))));
  }

  @ParameterizedTest(name = "{1} twice on {0}: {2}")
  @MethodSource("repeatedHeaders")
  void aRepeatedHeaderIsABadRequestNamingItAndChangesNothing(
      String suffix, String repeated, List<Map.Entry<String, String>> headers) {
    HostSnapshot before = state();
    Answer a = RawHttp.post(port, "/wopi/files/" + file + suffix + query(), headers);
    assertThat(a.status()).isEqualTo(400);
    assertThat(a.head())
        .containsIgnoringCase("X-WOPI-LockFailureReason: " + repeated + " was sent");
    assertUnchanged(before);
  }

  @Test
  void theSameRequestWithEachHeaderOnceIsAccepted() {
    // the control for the test above: RawHttp itself sends valid requests
    Answer a =
        RawHttp.post(
            port,
            "/wopi/files/" + file + query(),
            List.of(Map.entry("X-WOPI-Override", "UNLOCK"), Map.entry("X-WOPI-Lock", HELD)));
    assertThat(a.status()).isEqualTo(200);
    assertThat(wopi.getLock(file, token).header("X-WOPI-Lock")).contains("");
  }

  @Test
  void aLockIdWithACommaIsOneValueNotARepeat() {
    String json = "{\"S\":\"a,b\",\"F\":1}";
    assertThat(wopi.unlock(file, token, HELD).status()).isEqualTo(200);
    assertThat(wopi.lock(file, token, json).status()).isEqualTo(200);
    assertThat(wopi.getLock(file, token).header("X-WOPI-Lock")).contains(json);
  }

  // ---- oversize headers -------------------------------------------------------------------

  @Test
  void aLockIdOf1025CharactersIsABadRequestForEveryLockOperationAndChangesNothing() {
    HostSnapshot before = state();
    String tooLong = "x".repeat(1025);
    for (Reply r :
        List.of(
            wopi.lock(file, token, tooLong),
            wopi.refreshLock(file, token, tooLong),
            wopi.unlock(file, token, tooLong),
            wopi.unlockAndRelock(file, token, tooLong, HELD),
            wopi.unlockAndRelock(file, token, "new-lock", tooLong))) {
      assertThat(r.status()).isEqualTo(400);
      assertThat(r.header("X-WOPI-LockFailureReason")).isPresent();
    }
    assertUnchanged(before);
  }

  @Test
  void aPutFileWithA1025CharacterLockIsRefusedAndWritesNothing() {
    HostSnapshot before = state();
    Reply r = wopi.putFile(file, token, "x".repeat(1025), "new".getBytes(StandardCharsets.UTF_8));
    assertThat(r.status()).isEqualTo(409); // a lock that long cannot match the held one
    assertUnchanged(before);
  }

  @Test
  void aHeaderOver64KiBIsRefusedByTheServerBeforeTheHostActs() {
    HostSnapshot before = state();
    // an UNLOCK whose (huge) lock header starts with the right lock id
    Answer a =
        RawHttp.post(
            port,
            "/wopi/files/" + file + query(),
            List.of(
                Map.entry("X-WOPI-Override", "UNLOCK"),
                Map.entry("X-WOPI-Lock", HELD + "y".repeat(64 * 1024))));
    assertThat(a.status()).isIn(400, 431);
    assertUnchanged(before);
  }

  @Test
  void manyHeadersAddingUpToMoreThanTheLimitAreRefused() {
    HostSnapshot before = state();
    List<Map.Entry<String, String>> headers = new java.util.ArrayList<>();
    headers.add(Map.entry("X-WOPI-Override", "UNLOCK"));
    headers.add(Map.entry("X-WOPI-Lock", HELD));
    for (int i = 0; i < 200; i++) {
      headers.add(Map.entry("X-Padding-" + i, "z".repeat(500)));
    }
    Answer a = RawHttp.post(port, "/wopi/files/" + file + query(), headers);
    assertThat(a.status()).isIn(400, 431);
    assertUnchanged(before);
  }

  // ---- bodies over wopi-host.max-file-size ------------------------------------------------

  static byte[] bytes(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) ('a' + i % 26);
    }
    return b;
  }

  @Test
  void aPutFileOneByteOverTheLimitIs413AndWritesNothing() {
    HostSnapshot before = state();
    Reply r = wopi.putFile(file, token, HELD, bytes(LIMIT + 1));
    assertThat(r.status()).isEqualTo(413);
    assertUnchanged(before);
  }

  @Test
  void aPutFileOverTheLimitWithoutContentLengthIs413AndWritesNothing() {
    HostSnapshot before = state();
    // chunked: the host cannot know the size up front and must stop reading past the limit
    int status = streamed(WopiHttp.url(wopi.base(), file, "/contents", token), 1024 * 1024);
    assertThat(status).isEqualTo(413);
    assertUnchanged(before);
  }

  @Test
  void aPutFileOfExactlyTheLimitIsWritten() throws IOException {
    byte[] content = bytes(LIMIT);
    Reply r = wopi.putFile(file, token, HELD, content);
    assertThat(r.status()).isEqualTo(200);
    assertThat(Files.readAllBytes(docs.resolve(file))).isEqualTo(content);
    assertThat(r.header("X-WOPI-ItemVersion")).isPresent();
  }

  @Test
  void aPutRelativeFileOverTheLimitIs413AndCreatesNothing() {
    HostSnapshot before = state();
    for (Map<String, String> target :
        List.of(
            Map.of("X-WOPI-SuggestedTarget", ".txt"),
            Map.of("X-WOPI-RelativeTarget", "new-" + UUID.randomUUID() + ".docx"),
            // an overwrite of the file itself: its lock is checked before the body, as for PutFile
            Map.of("X-WOPI-RelativeTarget", file, "X-WOPI-OverwriteRelativeTarget", "true"))) {
      Reply r = wopi.putRelative(file, token, target, bytes(LIMIT + 1));
      assertThat(r.status())
          .as("%s", target)
          .isEqualTo(target.containsKey("X-WOPI-OverwriteRelativeTarget") ? 409 : 413);
    }
    assertUnchanged(before);
  }

  @Test
  void aPutRelativeFileOverTheLimitWithoutContentLengthIs413AndCreatesNothing() {
    HostSnapshot before = state();
    int status =
        streamed(
            WopiHttp.url(wopi.base(), file, "", token),
            1024 * 1024,
            "X-WOPI-Override",
            "PUT_RELATIVE",
            "X-WOPI-SuggestedTarget",
            ".txt");
    assertThat(status).isEqualTo(413);
    assertUnchanged(before);
  }

  /** A POST of {@code size} bytes from a stream, so sent chunked, without Content-Length. */
  int streamed(String url, int size, String... headers) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(30))
            .POST(
                HttpRequest.BodyPublishers.ofInputStream(
                    () -> new ByteArrayInputStream(bytes(size))));
    if (headers.length == 0) {
      b.header("X-WOPI-Override", "PUT").header("X-WOPI-Lock", HELD);
    }
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    try {
      return HttpClient.newHttpClient()
          .send(b.build(), HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
