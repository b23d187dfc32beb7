package io.hostloom.wopihost;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.testing.CountingLockBackend;
import io.hostloom.locking.testing.CountingLockBackend.Operation;
import io.hostloom.wopihost.security.AccessTokens;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * How many lock-backend operations each WOPI request costs, counted by the testkit's counting
 * backend around the in-memory backend (the figures in the README's table come from this test): one
 * per request, PutFile two (its lock is checked again when the upload commits).
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"hostloom.backend=", "wopi-host.token-secret=count-secret-0123456789"})
@ActiveProfiles("test")
class BackendCallsPerRequestTest {
  @TempDir static Path docs;
  static final CountingLockBackend COUNTING = new CountingLockBackend(new InMemoryLockBackend());

  @DynamicPropertySource
  static void props(DynamicPropertyRegistry r) {
    r.add("wopi-host.docs-dir", () -> docs.toString());
  }

  @TestConfiguration
  static class Counting {
    @Bean
    LockBackend countingBackend() {
      return COUNTING;
    }
  }

  @LocalServerPort int port;
  @Autowired AccessTokens tokens;

  private Map<Operation, Long> count(Supplier<WopiHttp.Reply> request, int expectedStatus) {
    COUNTING.reset();
    assertThat(request.get().status()).isEqualTo(expectedStatus);
    Map<Operation, Long> calls = new EnumMap<>(Operation.class);
    for (Operation op : Operation.values()) {
      if (COUNTING.count(op) > 0) {
        calls.put(op, COUNTING.count(op));
      }
    }
    return calls;
  }

  @Test
  void eachWopiRequestCostsOneBackendOperationPutFileTwo() throws Exception {
    Files.writeString(docs.resolve("c.docx"), "c");
    String t = tokens.issue("alice", "c.docx", Duration.ofHours(1));
    WopiHttp w = new WopiHttp("http://127.0.0.1:" + port);
    String f = "c.docx";
    byte[] body = "x".getBytes(StandardCharsets.UTF_8);

    assertThat(count(() -> w.checkFileInfo(f, t), 200)).isEmpty();
    assertThat(count(() -> w.getFile(f, t), 200)).isEmpty();
    assertThat(count(() -> w.lock(f, t, "A"), 200)).isEqualTo(Map.of(Operation.ACQUIRE, 1L));
    assertThat(count(() -> w.lock(f, t, "A"), 200)).isEqualTo(Map.of(Operation.ACQUIRE, 1L));
    assertThat(count(() -> w.lock(f, t, "B"), 409)).isEqualTo(Map.of(Operation.ACQUIRE, 1L));
    assertThat(count(() -> w.getLock(f, t), 200)).isEqualTo(Map.of(Operation.READ, 1L));
    assertThat(count(() -> w.refreshLock(f, t, "A"), 200)).isEqualTo(Map.of(Operation.EXTEND, 1L));
    assertThat(count(() -> w.refreshLock(f, t, "B"), 409)).isEqualTo(Map.of(Operation.EXTEND, 1L));
    // PutFile reads the lock before the body and again when the upload commits
    assertThat(count(() -> w.putFile(f, t, "A", body), 200)).isEqualTo(Map.of(Operation.READ, 2L));
    assertThat(count(() -> w.rename(f, t, "A", "renamed"), 200))
        .isEqualTo(Map.of(Operation.READ, 1L));
    assertThat(count(() -> w.delete(f, t), 409)).isEqualTo(Map.of(Operation.READ, 1L));
    assertThat(count(() -> w.unlockAndRelock(f, t, "B", "A"), 200))
        .isEqualTo(Map.of(Operation.REPLACE, 1L));
    assertThat(count(() -> w.unlockAndRelock(f, t, "C", "A"), 409))
        .isEqualTo(Map.of(Operation.REPLACE, 1L));
    assertThat(count(() -> w.unlock(f, t, "A"), 409)).isEqualTo(Map.of(Operation.RELEASE, 1L));
    assertThat(count(() -> w.unlock(f, t, "B"), 200)).isEqualTo(Map.of(Operation.RELEASE, 1L));
    assertThat(count(() -> w.lock(f, t, ""), 400)).isEmpty();
  }

  @Test
  void containerEcosystemUserInfoAndDownloadRequestsCostNoBackendOperation() throws Exception {
    Files.writeString(docs.resolve("e.docx"), "e");
    String t = tokens.issue("alice", "e.docx", Duration.ofHours(1));
    String c = tokens.issue("alice", ":container:root", Duration.ofHours(1));
    String u = tokens.issue("alice", ":user", Duration.ofHours(1));
    String base = "http://127.0.0.1:" + port;
    WopiHttp w = new WopiHttp(base);
    String root = base + "/wopi/containers/root";
    String q = "?access_token=";
    String fileUrl = TokensE2ETest.fileUrl(w.checkFileInfo("e.docx", t));

    assertThat(count(() -> WopiHttp.get(fileUrl, Map.of()), 200)).isEmpty();
    assertThat(count(() -> WopiHttp.get(root + q + c, Map.of()), 200)).isEmpty();
    assertThat(count(() -> WopiHttp.get(root + "/children" + q + c, Map.of()), 200)).isEmpty();
    assertThat(count(() -> WopiHttp.get(root + "/ancestry" + q + c, Map.of()), 200)).isEmpty();
    assertThat(count(() -> WopiHttp.get(base + "/wopi/ecosystem" + q + u, Map.of()), 200))
        .isEmpty();
    assertThat(
            count(
                () ->
                    WopiHttp.get(base + "/wopi/ecosystem/root_container_pointer" + q + u, Map.of()),
                200))
        .isEmpty();
    assertThat(
            count(
                () ->
                    WopiHttp.post(
                        root + q + c,
                        Map.of(
                            "X-WOPI-Override",
                            "CREATE_CHILD_FILE",
                            "X-WOPI-RelativeTarget",
                            "new.docx"),
                        new byte[0]),
                200))
        .isEmpty();
    assertThat(count(() -> w.override("e.docx", t, "PUT_USER_INFO", Map.of()), 200)).isEmpty();
  }

  /** An overwrite checks the target's lock before the body and again when it commits. */
  @Test
  void overwritingPutRelativeFileAndCreateChildFileReadTheLockTwice() throws Exception {
    Files.writeString(docs.resolve("o.docx"), "o");
    Files.writeString(docs.resolve("o-target.docx"), "t");
    String t = tokens.issue("alice", "o.docx", Duration.ofHours(1));
    String c = tokens.issue("alice", ":container:root", Duration.ofHours(1));
    String base = "http://127.0.0.1:" + port;
    Map<String, String> overwrite =
        Map.of("X-WOPI-RelativeTarget", "o-target.docx", "X-WOPI-OverwriteRelativeTarget", "true");
    Map<String, String> putRelative = new HashMap<>(overwrite);
    putRelative.put("X-WOPI-Override", "PUT_RELATIVE");
    Map<String, String> createChild = new HashMap<>(overwrite);
    createChild.put("X-WOPI-Override", "CREATE_CHILD_FILE");
    byte[] body = "x".getBytes(StandardCharsets.UTF_8);

    assertThat(
            count(
                () ->
                    WopiHttp.post(base + "/wopi/files/o.docx?access_token=" + t, putRelative, body),
                200))
        .isEqualTo(Map.of(Operation.READ, 2L));
    assertThat(
            count(
                () ->
                    WopiHttp.post(
                        base + "/wopi/containers/root?access_token=" + c, createChild, new byte[0]),
                200))
        .isEqualTo(Map.of(Operation.READ, 2L));
  }
}
