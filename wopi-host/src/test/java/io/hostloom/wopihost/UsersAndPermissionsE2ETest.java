package io.hostloom.wopihost;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.wopihost.WopiHttp.Reply;
import io.hostloom.wopihost.security.AccessTokens;
import io.hostloom.wopihost.security.TokenScopes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Users and their rights per folder, from a users file, over real HTTP: every operation is decided
 * by the user's rights in the file's folder, CheckFileInfo's user fields follow them,
 * PutRelativeFile overwrites an existing target only for a user who may write it and only while it
 * is unlocked, and the page's file list shows only what the user may read.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"hostloom.backend=memory", "wopi-host.token-secret=users-secret-0123456789"})
@ActiveProfiles("test")
class UsersAndPermissionsE2ETest {
  @TempDir static Path docs;
  @TempDir static Path config;

  /** A folder made before start-up, so the users file can name it. */
  static final String SHARED = "c00000000000000a1";

  @DynamicPropertySource
  static void props(DynamicPropertyRegistry r) {
    r.add("wopi-host.docs-dir", () -> docs.toString());
    r.add("wopi-host.users-file", UsersAndPermissionsE2ETest::usersFile);
  }

  static String usersFile() {
    return TestUsers.usersFile(
        config,
        docs,
        SHARED,
        "shared",
        "# the test's users",
        "grant alice root all",
        "name  alice Alice Liddell",
        "grant bob   root read",
        "grant bob   " + SHARED + " read write",
        "grant dave  root read create",
        "grant erin  root read",
        "grant erin  " + SHARED + " none");
  }

  @LocalServerPort int port;
  @Autowired AccessTokens tokens;
  WopiHttp wopi;
  String file;

  @BeforeEach
  void newFile() throws IOException {
    wopi = new WopiHttp("http://127.0.0.1:" + port);
    file = "doc-" + UUID.randomUUID() + ".docx";
    Files.writeString(docs.resolve(file), "hello");
  }

  String token(String user) {
    return tokens.issue(user, file, Duration.ofHours(1));
  }

  @Test
  void checkFileInfosUserFieldsComeFromThePolicy() {
    Reply alice = wopi.checkFileInfo(file, token("alice"));
    assertThat(alice.status()).isEqualTo(200);
    assertThat(alice.text())
        .contains("\"UserId\":\"alice\"", "\"UserFriendlyName\":\"Alice Liddell\"")
        .contains("\"UserCanWrite\":true", "\"ReadOnly\":false", "\"UserCanRename\":true")
        .contains("\"UserCanNotWriteRelative\":false");
    Reply bob = wopi.checkFileInfo(file, token("bob"));
    assertThat(bob.status()).isEqualTo(200);
    assertThat(bob.text())
        .contains("\"UserFriendlyName\":\"bob\"", "\"UserCanWrite\":false", "\"ReadOnly\":true")
        .contains("\"UserCanRename\":false", "\"UserCanNotWriteRelative\":true");
  }

  @Test
  void aUserWithoutAnyRuleIsRefusedEverything() {
    String carol = token("carol");
    assertThat(wopi.checkFileInfo(file, carol).status()).isEqualTo(401);
    assertThat(wopi.getFile(file, carol).status()).isEqualTo(401);
    assertThat(wopi.getLock(file, carol).status()).isEqualTo(401);
  }

  @Test
  void aReaderReadsButCannotWriteLockRenameDeleteOrCreate() throws IOException {
    String bob = token("bob");
    assertThat(wopi.getFile(file, bob).text()).isEqualTo("hello");
    assertThat(wopi.getLock(file, bob).status()).isEqualTo(200);
    assertThat(wopi.putFile(file, bob, null, bytes("bob")).status()).isEqualTo(401);
    assertThat(wopi.lock(file, bob, "L").status()).isEqualTo(401);
    assertThat(wopi.rename(file, bob, null, "renamed").status()).isEqualTo(401);
    assertThat(wopi.delete(file, bob).status()).isEqualTo(401);
    Reply relative =
        wopi.putRelative(file, bob, Map.of("X-WOPI-SuggestedTarget", ".txt"), bytes("x"));
    assertThat(relative.status()).isEqualTo(401);
    assertThat(Files.readString(docs.resolve(file))).isEqualTo("hello");
    assertThat(Files.exists(docs.resolve(file))).isTrue();
  }

  @Test
  void aFolderRuleGivesRightsInThatFolderOnly() {
    String placed = file;
    placeInShared(placed);
    String bob = token("bob");
    assertThat(wopi.lock(placed, bob, "bobs").status()).isEqualTo(200);
    assertThat(wopi.putFile(placed, bob, "bobs", bytes("by bob")).status()).isEqualTo(200);
    assertThat(wopi.getFile(placed, bob).text()).isEqualTo("by bob");
    assertThat(wopi.delete(placed, bob).status()).isEqualTo(401); // read write only
  }

  @Test
  void putRelativeOverwritesAnExistingTargetForAUserWhoMayWriteIt() throws IOException {
    String target = "target-" + UUID.randomUUID() + ".docx";
    Files.writeString(docs.resolve(target), "old");
    String alice = token("alice");
    Reply noOverwrite =
        wopi.putRelative(file, alice, Map.of("X-WOPI-RelativeTarget", target), bytes("new"));
    assertThat(noOverwrite.status()).isEqualTo(409);
    assertThat(noOverwrite.header("X-WOPI-ValidRelativeTarget")).isPresent();
    Reply overwrite =
        wopi.putRelative(
            file,
            alice,
            Map.of("X-WOPI-RelativeTarget", target, "X-WOPI-OverwriteRelativeTarget", "true"),
            bytes("new"));
    assertThat(overwrite.status()).isEqualTo(200);
    assertThat(overwrite.text()).contains("\"Name\":\"" + target + "\"");
    assertThat(Files.readString(docs.resolve(target))).isEqualTo("new");
  }

  @Test
  void putRelativeDoesNotOverwriteALockedTarget() throws IOException {
    String target = "locked-" + UUID.randomUUID() + ".docx";
    Files.writeString(docs.resolve(target), "old");
    String alice = token("alice");
    assertThat(wopi.lock(target, tokens.issue("alice", target, Duration.ofHours(1)), "L1").status())
        .isEqualTo(200);
    Reply r =
        wopi.putRelative(
            file,
            alice,
            Map.of("X-WOPI-RelativeTarget", target, "X-WOPI-OverwriteRelativeTarget", "true"),
            bytes("new"));
    assertThat(r.status()).isEqualTo(409);
    assertThat(r.header("X-WOPI-Lock")).contains("L1");
    assertThat(Files.readString(docs.resolve(target))).isEqualTo("old");
  }

  @Test
  void putRelativeDoesNotOverwriteATargetTheUserMayNotWrite() throws IOException {
    String target = "theirs-" + UUID.randomUUID() + ".docx";
    Files.writeString(docs.resolve(target), "old");
    Reply r =
        wopi.putRelative(
            file,
            token("dave"), // read create: may save as a new file, not over one
            Map.of("X-WOPI-RelativeTarget", target, "X-WOPI-OverwriteRelativeTarget", "true"),
            bytes("new"));
    assertThat(r.status()).isEqualTo(409);
    assertThat(r.header("X-WOPI-ValidRelativeTarget")).isPresent();
    assertThat(Files.readString(docs.resolve(target))).isEqualTo("old");
    Reply asNew =
        wopi.putRelative(file, token("dave"), Map.of("X-WOPI-SuggestedTarget", ".txt"), bytes("n"));
    assertThat(asNew.status()).isEqualTo(200);
    assertThat(asNew.text()).contains("\"HostEditUrl\":\"http", "\"HostViewUrl\":\"http");
  }

  @Test
  void thePageListsOnlyTheFilesTheUserMayReadAndNothingWithoutAUser() throws IOException {
    String hidden = file;
    placeInShared(hidden);
    Reply anonymous = WopiHttp.get(wopi.base() + "/api/files", Map.of());
    assertThat(anonymous.status()).isEqualTo(401);
    assertThat(anonymous.text()).doesNotContain(hidden);
    Files.writeString(docs.resolve("visible-" + hidden), "v");
    Reply dave = pageFiles("dave"); // root read create: inherited by the shared folder
    assertThat(dave.status()).isEqualTo(200);
    assertThat(dave.text()).contains("\"user\":\"dave\"").contains("\"" + hidden + "\"");
    Reply erin = pageFiles("erin"); // root read, none in the shared folder
    assertThat(erin.status()).isEqualTo(200);
    assertThat(erin.text()).contains("visible-" + hidden).doesNotContain("\"" + hidden + "\"");
    Reply carol = pageFiles("carol");
    assertThat(carol.status()).isEqualTo(200);
    assertThat(carol.text()).contains("\"files\":[]");
    String fileToken = token("alice"); // a file's token is not a page token
    assertThat(
            WopiHttp.get(wopi.base() + "/api/files", Map.of("Authorization", "Bearer " + fileToken))
                .status())
        .isEqualTo(401);
  }

  @Test
  void theOpenPageSaysWhatIsMissing() {
    Reply anonymous = WopiHttp.get(wopi.base() + "/open/" + file, Map.of());
    assertThat(anonymous.status()).isEqualTo(401);
    assertThat(anonymous.text()).contains("Not signed in");
    String page = tokens.issue("alice", TokenScopes.USER, Duration.ofHours(1));
    Reply noClient =
        WopiHttp.get(wopi.base() + "/open/" + file + "?access_token=" + page, Map.of());
    assertThat(noClient.status()).isEqualTo(404);
    assertThat(noClient.text()).contains("No WOPI client is configured", "wopi-host.discovery-url");
  }

  private Reply pageFiles(String user) {
    String page = tokens.issue(user, TokenScopes.USER, Duration.ofHours(1));
    return WopiHttp.get(wopi.base() + "/api/files", Map.of("Authorization", "Bearer " + page));
  }

  private static void placeInShared(String fileId) {
    TestUsers.place(docs, fileId, SHARED);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
