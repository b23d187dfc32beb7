package io.hostloom.wopihost;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.testing.ManualLockClock;
import io.hostloom.locking.time.LockClock;
import io.hostloom.wopihost.WopiHttp.Reply;
import io.hostloom.wopihost.security.AccessTokens;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The WOPI lock rules 1–10 end to end: a real server on a random port, real HTTP requests, the
 * in-memory lock backend on a manual clock (so the 30-minute expiry is checked exactly, without
 * waiting). Each test works on its own file.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"hostloom.backend=memory", "wopi-host.token-secret=e2e-secret-0123456789abcdef"})
@ActiveProfiles("test")
// Spring Framework 7 no longer finds the enclosing class's @TestConfiguration for @Nested classes
@Import(WopiLockRulesE2ETest.ManualClock.class)
class WopiLockRulesE2ETest {
  @TempDir static Path docs;

  static final ManualLockClock CLOCK = new ManualLockClock();

  @DynamicPropertySource
  static void props(DynamicPropertyRegistry r) {
    r.add("wopi-host.docs-dir", () -> docs.toString());
  }

  @TestConfiguration
  static class ManualClock {
    @Bean
    LockClock lockClock() {
      return CLOCK;
    }
  }

  @LocalServerPort int port;
  @Autowired AccessTokens tokens;

  WopiHttp wopi;
  String file;
  String token;

  @BeforeEach
  void newFile() throws IOException {
    wopi = new WopiHttp("http://127.0.0.1:" + port);
    file = "doc-" + UUID.randomUUID() + ".docx";
    Files.write(docs.resolve(file), "hello".getBytes(StandardCharsets.UTF_8));
    token = tokens.issue("alice", file, Duration.ofHours(1));
  }

  static void assertConflict(Reply r, String currentLock) {
    assertThat(r.status()).isEqualTo(409);
    assertThat(r.header("X-WOPI-Lock")).contains(currentLock);
  }

  static void assertOkWithoutLockHeader(Reply r) {
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.header("X-WOPI-Lock")).isEmpty();
  }

  @Test
  void checkFileInfoDescribesTheFileAndItsLockSupportWithoutWopiPlusFields() {
    Reply r = wopi.checkFileInfo(file, token);
    assertThat(r.status()).isEqualTo(200);
    String json = r.text();
    assertThat(json)
        .contains("\"BaseFileName\":\"" + file + "\"")
        .contains("\"UserId\":\"alice\"")
        .contains("\"Size\":5")
        .contains("\"SupportsLocks\":true")
        .contains("\"SupportsGetLock\":true")
        .contains("\"SupportsExtendedLockLength\":true")
        .contains("\"SupportsUpdate\":true")
        .contains("\"UserCanWrite\":true")
        .contains("\"SupportsRename\":true")
        .contains("\"SupportsDeleteFile\":true")
        .contains("\"UserCanRename\":true")
        .contains("\"OwnerId\":")
        .contains("\"Version\":\"");
    for (String wopiPlus :
        new String[] {
          "SupportsCoauth",
          "SequenceNumber",
          "OfficeCollaborationServiceEndpointUrl",
          "RealTimeChannelEndpointUrl",
          "AccessTokenExpiry",
          "ServerTime",
          "SharingStatus",
          "FileGeoLocationCode"
        }) {
      assertThat(json).doesNotContain("\"" + wopiPlus + "\"");
    }
    assertThat(json).doesNotContain("null");
  }

  @Nested
  class Rule1LockIds {
    @Test
    void aLockIdOf1024PrintableAsciiCharactersIsAccepted() {
      String id = "x".repeat(1000) + " !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".substring(0, 24);
      assertThat(id).hasSize(1024);
      assertOkWithoutLockHeader(wopi.lock(file, token, id));
      assertThat(wopi.getLock(file, token).header("X-WOPI-Lock")).contains(id);
    }

    @Test
    void aLockIdOf1025CharactersIsABadRequestAndNothingIsStored() {
      Reply r = wopi.lock(file, token, "x".repeat(1025));
      assertThat(r.status()).isEqualTo(400);
      assertThat(r.header("X-WOPI-LockFailureReason")).isPresent();
      assertThat(wopi.getLock(file, token).header("X-WOPI-Lock")).contains("");
    }

    @Test
    void oneLockPerFile() {
      assertOkWithoutLockHeader(wopi.lock(file, token, "A"));
      assertConflict(wopi.lock(file, token, "B"), "A");
    }
  }

  @Nested
  class Rule2Expiry {
    @Test
    void aLockExpiresThirtyMinutesAfterLockAndNotOneMillisecondEarlier() {
      assertOkWithoutLockHeader(wopi.lock(file, token, "A"));
      CLOCK.advance(Duration.ofMinutes(30));
      assertThat(wopi.getLock(file, token).header("X-WOPI-Lock")).contains("A");
      CLOCK.advance(Duration.ofMillis(2));
      assertThat(wopi.getLock(file, token).header("X-WOPI-Lock")).contains("");
      assertOkWithoutLockHeader(wopi.lock(file, token, "B"));
    }

    @Test
    void refreshLockRestartsTheThirtyMinutes() {
      assertOkWithoutLockHeader(wopi.lock(file, token, "A"));
      CLOCK.advance(Duration.ofMinutes(20));
      assertOkWithoutLockHeader(wopi.refreshLock(file, token, "A"));
      CLOCK.advance(Duration.ofMinutes(20));
      assertThat(wopi.getLock(file, token).header("X-WOPI-Lock")).contains("A");
      CLOCK.advance(Duration.ofMinutes(11));
      assertThat(wopi.getLock(file, token).header("X-WOPI-Lock")).contains("");
    }

    @Test
    void unlockAndRelockRestartsTheThirtyMinutes() {
      assertOkWithoutLockHeader(wopi.lock(file, token, "A"));
      CLOCK.advance(Duration.ofMinutes(20));
      assertOkWithoutLockHeader(wopi.unlockAndRelock(file, token, "B", "A"));
      CLOCK.advance(Duration.ofMinutes(20));
      assertThat(wopi.getLock(file, token).header("X-WOPI-Lock")).contains("B");
    }
  }

  @Nested
  class Rule3Lock {
    @Test
    void lockingAnUnlockedFileSucceeds() {
      assertOkWithoutLockHeader(wopi.lock(file, token, "A"));
      assertThat(wopi.getLock(file, token).header("X-WOPI-Lock")).contains("A");
    }

    @Test
    void lockingWithTheSameIdIsARefresh() {
      assertOkWithoutLockHeader(wopi.lock(file, token, "A"));
      CLOCK.advance(Duration.ofMinutes(25));
      assertOkWithoutLockHeader(wopi.lock(file, token, "A"));
      CLOCK.advance(Duration.ofMinutes(25));
      assertThat(wopi.getLock(file, token).header("X-WOPI-Lock")).contains("A");
    }

    @Test
    void lockingWithAnotherIdConflictsWithTheCurrentLock() {
      assertOkWithoutLockHeader(wopi.lock(file, token, "A"));
      assertConflict(wopi.lock(file, token, "B"), "A");
      assertThat(wopi.lock(file, token, "a").status()).isEqualTo(409); // ordinal: case matters
    }
  }

  @Nested
  class Rule4UnlockAndRelock {
    @Test
    void swapsTheLockWhenTheOldLockMatches() {
      assertOkWithoutLockHeader(wopi.lock(file, token, "A"));
      assertOkWithoutLockHeader(wopi.unlockAndRelock(file, token, "B", "A"));
      assertThat(wopi.getLock(file, token).header("X-WOPI-Lock")).contains("B");
      assertConflict(wopi.unlock(file, token, "A"), "B");
    }

    @Test
    void conflictsWithTheCurrentLockWhenTheOldLockDoesNotMatch() {
      assertOkWithoutLockHeader(wopi.lock(file, token, "A"));
      assertConflict(wopi.unlockAndRelock(file, token, "C", "B"), "A");
      assertThat(wopi.getLock(file, token).header("X-WOPI-Lock")).contains("A");
    }

    @Test
    void needsBothHeaders() {
      assertOkWithoutLockHeader(wopi.lock(file, token, "A"));
      assertThat(wopi.unlockAndRelock(file, token, "", "A").status()).isEqualTo(400);
      assertThat(wopi.unlockAndRelock(file, token, "B", "").status()).isEqualTo(400);
    }
  }

  @Nested
  class Rule5UnlockedOrMismatch {
    @Test
    void onAnUnlockedFileEveryOperationConflictsWithAnEmptyLock() {
      assertConflict(wopi.unlock(file, token, "A"), "");
      assertConflict(wopi.refreshLock(file, token, "A"), "");
      assertConflict(wopi.unlockAndRelock(file, token, "B", "A"), "");
    }

    @Test
    void withAMismatchEveryOperationConflictsWithTheCurrentLock() {
      assertOkWithoutLockHeader(wopi.lock(file, token, "A"));
      assertConflict(wopi.unlock(file, token, "B"), "A");
      assertConflict(wopi.refreshLock(file, token, "B"), "A");
      assertConflict(wopi.unlockAndRelock(file, token, "C", "B"), "A");
      assertThat(wopi.getLock(file, token).header("X-WOPI-Lock")).contains("A");
    }

    @Test
    void unlockWithTheMatchingLockUnlocks() {
      assertOkWithoutLockHeader(wopi.lock(file, token, "A"));
      assertOkWithoutLockHeader(wopi.unlock(file, token, "A"));
      assertThat(wopi.getLock(file, token).header("X-WOPI-Lock")).contains("");
    }
  }

  @Nested
  class Rule6GetLock {
    @Test
    void answers200WithTheLockOrAnEmptyValue() {
      Reply unlocked = wopi.getLock(file, token);
      assertThat(unlocked.status()).isEqualTo(200);
      assertThat(unlocked.header("X-WOPI-Lock")).contains("");
      wopi.lock(file, token, "{\"S\":\"x\",\"F\":1}");
      Reply locked = wopi.getLock(file, token);
      assertThat(locked.status()).isEqualTo(200);
      assertThat(locked.header("X-WOPI-Lock")).contains("{\"S\":\"x\",\"F\":1}");
    }
  }

  @Nested
  class Rule7Headers {
    @Test
    void successesCarryNoLockHeaderExceptGetLockAndConflictsAlwaysDo() {
      assertOkWithoutLockHeader(wopi.lock(file, token, "A"));
      assertOkWithoutLockHeader(wopi.refreshLock(file, token, "A"));
      assertOkWithoutLockHeader(wopi.unlockAndRelock(file, token, "B", "A"));
      assertOkWithoutLockHeader(wopi.unlock(file, token, "B"));
      Reply conflict = wopi.unlock(file, token, "B");
      assertConflict(conflict, "");
      assertThat(conflict.header("X-WOPI-LockFailureReason")).isPresent();
    }
  }

  @Nested
  class Rule8MissingLockHeader {
    @Test
    void aMissingOrEmptyLockHeaderIsABadRequest() {
      for (String op : new String[] {"LOCK", "UNLOCK", "REFRESH_LOCK"}) {
        assertThat(wopi.override(file, token, op, Map.of()).status()).as(op).isEqualTo(400);
        assertThat(wopi.override(file, token, op, Map.of("X-WOPI-Lock", "")).status())
            .as(op)
            .isEqualTo(400);
      }
    }
  }

  @Nested
  class Rule9PutFile {
    @Test
    void aLockedFileIsWrittenWithTheMatchingLockOnly() {
      assertOkWithoutLockHeader(wopi.lock(file, token, "A"));
      assertConflict(wopi.putFile(file, token, "B", bytes("no")), "A");
      assertConflict(wopi.putFile(file, token, null, bytes("no")), "A");
      assertThat(wopi.putFile(file, token, "A", bytes("yes")).status()).isEqualTo(200);
      assertThat(wopi.getFile(file, token).text()).isEqualTo("yes");
    }

    @Test
    void anUnlockedNonEmptyFileConflictsWithAnEmptyLockAndTakesNoLock() {
      assertConflict(wopi.putFile(file, token, null, bytes("no")), "");
      assertConflict(wopi.putFile(file, token, "A", bytes("no")), "");
      assertThat(wopi.getLock(file, token).header("X-WOPI-Lock")).contains("");
      assertThat(wopi.getFile(file, token).text()).isEqualTo("hello");
    }

    @Test
    void anUnlockedEmptyFileMayBeWritten() throws IOException {
      Files.write(docs.resolve(file), new byte[0]);
      assertThat(wopi.putFile(file, token, null, bytes("new")).status()).isEqualTo(200);
      assertThat(wopi.getFile(file, token).text()).isEqualTo("new");
    }
  }

  @Nested
  class Rule10OtherOperations {
    @Test
    void renameProceedsUnlockedOrWithTheMatchingLockAndConflictsOtherwise() {
      Reply unlocked = wopi.rename(file, token, null, "renamed-once");
      assertThat(unlocked.status()).isEqualTo(200);
      assertThat(unlocked.text()).contains("\"Name\":\"renamed-once\"");
      wopi.lock(file, token, "A");
      assertConflict(wopi.rename(file, token, "B", "nope"), "A");
      assertConflict(wopi.rename(file, token, null, "nope"), "A");
      assertThat(wopi.rename(file, token, "A", "renamed-twice").status()).isEqualTo(200);
      // the id (and so the WOPISrc) stays; only the name changes
      assertThat(wopi.checkFileInfo(file, token).text())
          .contains("\"BaseFileName\":\"renamed-twice.docx\"");
    }

    @Test
    void deleteConflictsWithAnyLockEvenTheCallersOwn() {
      wopi.lock(file, token, "A");
      assertConflict(wopi.delete(file, token), "A");
      wopi.unlock(file, token, "A");
      assertThat(wopi.delete(file, token).status()).isEqualTo(200);
      assertThat(wopi.checkFileInfo(file, token).status()).isEqualTo(404);
    }

    @Test
    void putRelativeFileDoesNotOverwriteALockedFileAndAnswersItsLock() throws IOException {
      String target = "target-" + UUID.randomUUID() + ".docx";
      Files.write(docs.resolve(target), bytes("old"));
      String targetToken = tokens.issue("alice", target, Duration.ofHours(1));
      wopi.lock(target, targetToken, "T");
      Reply r =
          wopi.putRelative(
              file,
              token,
              Map.of("X-WOPI-RelativeTarget", target, "X-WOPI-OverwriteRelativeTarget", "true"),
              bytes("new"));
      // alice may write `target` (the default policy), so she is told its lock, as GetLock would
      // (a user who may not write it gets a free name instead: HostUnderAttackE2ETest)
      assertThat(r.status()).isEqualTo(409);
      assertThat(r.header("X-WOPI-Lock")).contains("T");
      assertThat(Files.readString(docs.resolve(target))).isEqualTo("old");
    }

    @Test
    void putRelativeFileCreatesAFileWithItsOwnUrlAndToken() {
      Reply r =
          wopi.putRelative(
              file, token, Map.of("X-WOPI-SuggestedTarget", ".txt"), bytes("relative"));
      assertThat(r.status()).isEqualTo(200);
      String url = r.text().replaceAll(".*\"Url\":\"([^\"]+)\".*", "$1");
      assertThat(url).contains("/wopi/files/").contains("access_token=");
      Reply created = WopiHttp.get(url.replace("/wopi/files/", "/wopi/files/"), Map.of());
      assertThat(created.status()).isEqualTo(200);
      assertThat(created.text()).contains(".txt\"");
    }

    @Test
    void putRelativeFileWithAnExistingTargetAndNoOverwriteConflicts() throws IOException {
      String target = "exists-" + UUID.randomUUID() + ".docx";
      Files.write(docs.resolve(target), bytes("old"));
      Reply r = wopi.putRelative(file, token, Map.of("X-WOPI-RelativeTarget", target), bytes("x"));
      assertThat(r.status()).isEqualTo(409);
      assertThat(r.header("X-WOPI-ValidRelativeTarget")).isPresent();
    }
  }

  @Nested
  class ItemVersion {
    @Test
    void getFileLockUnlockAndPutFileReportTheCheckFileInfoVersion() {
      String v0 = version();
      assertThat(wopi.getFile(file, token).header("X-WOPI-ItemVersion")).contains(v0);
      assertThat(wopi.lock(file, token, "A").header("X-WOPI-ItemVersion")).contains(v0);
      assertThat(wopi.refreshLock(file, token, "A").header("X-WOPI-ItemVersion")).contains(v0);
      assertThat(wopi.getLock(file, token).header("X-WOPI-ItemVersion")).contains(v0);
      Reply put = wopi.putFile(file, token, "A", bytes("v1"));
      String v1 = put.header("X-WOPI-ItemVersion").orElseThrow();
      assertThat(v1).isNotEqualTo(v0).isEqualTo(version());
      Reply put2 = wopi.putFile(file, token, "A", bytes("v1")); // same bytes: still a new version
      String v2 = put2.header("X-WOPI-ItemVersion").orElseThrow();
      assertThat(v2).isNotEqualTo(v1);
      assertThat(wopi.unlock(file, token, "A").header("X-WOPI-ItemVersion")).contains(v2);
      wopi.rename(file, token, null, "renamed");
      assertThat(version()).isEqualTo(v2);
    }

    private String version() {
      return wopi.checkFileInfo(file, token)
          .text()
          .replaceAll(".*\"Version\":\"([^\"]+)\".*", "$1");
    }
  }

  @Nested
  class Tokens {
    @Test
    void aMissingTamperedOrOtherFilesTokenIs401() throws IOException {
      assertThat(wopi.checkFileInfo(file, "").status()).isEqualTo(401);
      assertThat(wopi.getFile(file, token + "x").status()).isEqualTo(401);
      String other = "other-" + UUID.randomUUID() + ".txt";
      Files.write(docs.resolve(other), bytes("o"));
      String otherToken = tokens.issue("alice", other, Duration.ofHours(1));
      assertThat(wopi.getFile(file, otherToken).status()).isEqualTo(401);
      assertThat(wopi.lock(file, otherToken, "A").status()).isEqualTo(401);
      assertThat(wopi.getLock(file, token).header("X-WOPI-Lock")).contains("");
    }

    @Test
    void anExpiredTokenIs401() {
      AccessTokens past =
          new AccessTokens(
              "e2e-secret-0123456789abcdef".getBytes(StandardCharsets.UTF_8),
              java.time.Clock.offset(java.time.Clock.systemUTC(), Duration.ofHours(-2)));
      String expired = past.issue("alice", file, Duration.ofHours(1));
      assertThat(wopi.checkFileInfo(file, expired).status()).isEqualTo(401);
    }

    @Test
    void aBearerHeaderIsAcceptedWhenTheQueryHasNoToken() {
      Reply r =
          WopiHttp.get(
              wopi.base() + "/wopi/files/" + file, Map.of("Authorization", "Bearer " + token));
      assertThat(r.status()).isEqualTo(200);
    }
  }

  @Nested
  class PathTraversal {
    @Test
    void fileIdsCanNeverLeaveTheDocumentsFolder() throws IOException {
      Path secret = docs.getParent().resolve("secret-" + UUID.randomUUID() + ".txt");
      Files.writeString(secret, "TOP-SECRET");
      try {
        String name = secret.getFileName().toString();
        String[] attacks = {
          "..%2F" + name,
          "%2e%2e%2F" + name,
          "%2E%2E%5C" + name,
          "..%5C" + name,
          "%252e%252e%252f" + name,
          "..",
          "%2e%2e",
          ".wopi",
          "%2Fetc%2Fpasswd",
          "C%3A%5Cwindows%5Cwin.ini",
          "..%00" + name
        };
        for (String attack : attacks) {
          for (String tokenFor : new String[] {name, "../" + name, attack}) {
            String t = tokens.issue("mallory", tokenFor, Duration.ofHours(1));
            String q = "?access_token=" + java.net.URLEncoder.encode(t, StandardCharsets.UTF_8);
            Reply info = WopiHttp.get(wopi.base() + "/wopi/files/" + attack + q, Map.of());
            Reply content =
                WopiHttp.get(wopi.base() + "/wopi/files/" + attack + "/contents" + q, Map.of());
            assertThat(info.status()).as(attack).isIn(400, 401, 404);
            assertThat(content.status()).as(attack).isIn(400, 401, 404);
            assertThat(content.text()).doesNotContain("TOP-SECRET");
            assertThat(info.text()).doesNotContain("TOP-SECRET");
          }
        }
      } finally {
        Files.deleteIfExists(secret);
      }
    }
  }

  @Test
  void operationsOnAMissingFileAre404() {
    String missing = "missing-" + UUID.randomUUID() + ".docx";
    String t = tokens.issue("alice", missing, Duration.ofHours(1));
    assertThat(wopi.checkFileInfo(missing, t).status()).isEqualTo(404);
    assertThat(wopi.lock(missing, t, "A").status()).isEqualTo(404);
    assertThat(wopi.getFile(missing, t).status()).isEqualTo(404);
  }

  @Test
  void anUnknownOverrideIsNotImplemented() {
    assertThat(wopi.override(file, token, "FROBNICATE", Map.of()).status()).isEqualTo(501);
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
