package io.hostloom.wopihost;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.testing.CountingLockBackend;
import io.hostloom.locking.testing.CountingLockBackend.Operation;
import io.hostloom.wopihost.EdgeE2ETest.Conn;
import io.hostloom.wopihost.WopiHttp.Reply;
import io.hostloom.wopihost.security.AccessTokens;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Uploads racing other clients over real HTTP: an upload (PutFile, an overwriting PutRelativeFile)
 * that began before another client's LOCK does not land over that client's save, and uploads in
 * flight together cannot take the folder above its quota (1 MiB here). The slow upload is held open
 * on a raw socket; the test waits until the host has passed its first checks (a lock read, a staged
 * file) before the other client acts.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "hostloom.backend=",
      "wopi-host.token-secret=races-secret-0123456789",
      "wopi-host.max-folder-size=1MB",
      "wopi-host.max-upload-time=60s"
    })
@ActiveProfiles("test")
@Import(BackendCallsPerRequestTest.Counting.class)
class UploadRacesE2ETest {
  @TempDir static Path docs;

  /** The lock backend, counted (shared with {@link BackendCallsPerRequestTest}). */
  static final CountingLockBackend COUNTING = BackendCallsPerRequestTest.COUNTING;

  @DynamicPropertySource
  static void props(DynamicPropertyRegistry r) {
    r.add("wopi-host.docs-dir", () -> docs.toString());
  }

  @LocalServerPort int port;
  @Autowired AccessTokens tokens;

  WopiHttp wopi() {
    return new WopiHttp("http://127.0.0.1:" + port);
  }

  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    for (int i = 0; i < 1500 && !condition.getAsBoolean(); i++) {
      Thread.sleep(10);
    }
    assertThat(condition.getAsBoolean()).as(what).isTrue();
  }

  @Test
  void anUploadStartedBeforeAnotherClientsLockDoesNotLandOverThatClientsSave() throws Exception {
    String file = "race-" + UUID.randomUUID() + ".docx";
    Files.write(docs.resolve(file), new byte[0]); // empty: an unlocked PutFile may write it
    String alice = tokens.issue("alice", file, Duration.ofHours(1));
    heldUploadLosesToALockTakenMeanwhile(
        "/wopi/files/" + file + "/contents?access_token=" + alice, "X-WOPI-Override: PUT", file);
  }

  @Test
  void anOverwritingPutRelativeFileStartedBeforeAnotherClientsLockDoesNotLandOverThatSave()
      throws Exception {
    String source = "source-" + UUID.randomUUID() + ".docx";
    String target = "target-" + UUID.randomUUID() + ".docx";
    Files.writeString(docs.resolve(source), "s");
    Files.write(docs.resolve(target), new byte[0]); // unlocked: alice may overwrite it
    String alice = tokens.issue("alice", source, Duration.ofHours(1));
    heldUploadLosesToALockTakenMeanwhile(
        "/wopi/files/" + source + "?access_token=" + alice,
        "X-WOPI-Override: PUT_RELATIVE\r\nX-WOPI-RelativeTarget: "
            + target
            + "\r\nX-WOPI-OverwriteRelativeTarget: true",
        target);
  }

  /**
   * Sends the first half of an upload to {@code target}, waits until it passed its lock check, lets
   * bob lock {@code file} and save it, then sends the rest: 409 with bob's lock, bob's save kept.
   */
  private void heldUploadLosesToALockTakenMeanwhile(String target, String headers, String file)
      throws Exception {
    String bob = tokens.issue("bob", file, Duration.ofHours(1));
    String late = "alice's late upload";
    try (Conn a = new Conn(port)) {
      COUNTING.reset();
      a.send(
          "POST "
              + target
              + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
              + headers
              + "\r\nContent-Length: "
              + late.length()
              + "\r\n\r\n"
              + late.substring(0, 7));
      await("alice's upload passed its lock check", () -> COUNTING.count(Operation.READ) >= 1);
      WopiHttp w = wopi();
      assertThat(w.lock(file, bob, "bobs-lock").status()).isEqualTo(200);
      byte[] saved = "bob's save under his lock".getBytes(StandardCharsets.UTF_8);
      assertThat(w.putFile(file, bob, "bobs-lock", saved).status()).isEqualTo(200);
      a.send(late.substring(7));
      String answer = a.readHead();
      assertThat(answer).startsWith("HTTP/1.1 409").contains("X-WOPI-Lock: bobs-lock");
      assertThat(Files.readAllBytes(docs.resolve(file))).isEqualTo(saved);
    }
  }

  @Test
  void uploadsInFlightTogetherCannotExceedTheQuota() throws Exception {
    String file = "quota-" + UUID.randomUUID() + ".docx";
    Files.writeString(docs.resolve(file), "q");
    String token = tokens.issue("alice", file, Duration.ofHours(1));
    Path filler = fillLeaving(30 * 1024);
    int size = 20 * 1024; // one fits, two do not
    List<Path> made = new ArrayList<>();
    try (Conn a = new Conn(port)) {
      a.send(
          "POST /wopi/files/"
              + file
              + "?access_token="
              + token
              + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-WOPI-Override: PUT_RELATIVE\r\n"
              + "X-WOPI-SuggestedTarget: .bin\r\nContent-Length: "
              + size
              + "\r\n\r\n"
              + "a".repeat(1024));
      await("the first upload is being staged", UploadRacesE2ETest::staging);
      // a second and a burst of others, all complete, while the first is still arriving
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        for (Future<Reply> f : uploads(pool, 4, file, token, size)) {
          assertThat(f.get().status()).isEqualTo(507);
        }
      } finally {
        pool.shutdownNow();
      }
      a.send("a".repeat(size - 1024));
      String answer = a.readHead();
      assertThat(answer).startsWith("HTTP/1.1 200");
      made.add(docs.resolve(file.replace(".docx", ".bin")));
      assertThat(used()).isLessThanOrEqualTo(1024 * 1024);
    } finally {
      Files.delete(filler);
      for (Path p : made) {
        Files.deleteIfExists(p);
      }
    }
  }

  @Test
  void concurrentCompleteUploadsCannotExceedTheQuotaEither() throws Exception {
    String file = "burst-" + UUID.randomUUID() + ".docx";
    Files.writeString(docs.resolve(file), "b");
    String token = tokens.issue("alice", file, Duration.ofHours(1));
    Path filler = fillLeaving(30 * 1024);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      long ok = 0;
      for (Future<Reply> f : uploads(pool, 8, file, token, 20 * 1024)) {
        int status = f.get().status();
        assertThat(status).isIn(200, 507);
        ok += status == 200 ? 1 : 0;
      }
      assertThat(ok).isEqualTo(1);
      assertThat(used()).isLessThanOrEqualTo(1024 * 1024);
    } finally {
      pool.shutdownNow();
      Files.delete(filler);
    }
  }

  /** A filler file that leaves {@code bytes} of the 1 MiB quota free. */
  static Path fillLeaving(long bytes) throws IOException {
    Path filler = docs.resolve("filler-" + UUID.randomUUID() + ".bin");
    Files.write(filler, new byte[(int) (1024 * 1024 - used() - bytes)]);
    return filler;
  }

  /** {@code n} PutRelativeFile uploads of {@code size} bytes beside {@code file}, all at once. */
  List<Future<Reply>> uploads(ExecutorService pool, int n, String file, String token, int size) {
    List<Future<Reply>> all = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      all.add(
          pool.submit(
              () ->
                  wopi()
                      .putRelative(
                          file, token, Map.of("X-WOPI-SuggestedTarget", ".bin"), new byte[size])));
    }
    return all;
  }

  /** Whether an upload is being staged in the host's temporary folder. */
  static boolean staging() {
    try (Stream<Path> tmp = Files.list(docs.resolve(".wopi").resolve("tmp"))) {
      return tmp.findAny().isPresent();
    } catch (IOException e) {
      return false;
    }
  }

  static long used() throws IOException {
    try (Stream<Path> list = Files.list(docs)) {
      return list.filter(p -> !p.getFileName().toString().startsWith("."))
          .filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
          .mapToLong(p -> p.toFile().length())
          .sum();
    }
  }
}
