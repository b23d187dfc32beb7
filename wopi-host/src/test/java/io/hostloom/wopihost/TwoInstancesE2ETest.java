package io.hostloom.wopihost;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.wopihost.WopiHttp.Reply;
import io.hostloom.wopihost.security.AccessTokens;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two host instances (two application contexts, two HTTP servers) over one lock backend and one
 * documents folder, as two processes over one Redis would be; requests alternate between them.
 */
class TwoInstancesE2ETest {
  static final String SECRET = "two-instances-secret-0123456789";
  @TempDir static Path docs;
  static ConfigurableApplicationContext a;
  static ConfigurableApplicationContext b;
  static WopiHttp[] hosts;
  static String token;

  @BeforeAll
  static void start() throws Exception {
    Files.writeString(docs.resolve("shared.docx"), "shared");
    LockBackend shared = new InMemoryLockBackend();
    a = instance(shared);
    b = instance(shared);
    hosts = new WopiHttp[] {http(a), http(b)};
    token = a.getBean(AccessTokens.class).issue("alice", "shared.docx", Duration.ofHours(1));
  }

  static ConfigurableApplicationContext instance(LockBackend shared) {
    return new SpringApplicationBuilder(WopiHostApplication.class)
        .profiles("test")
        .initializers(ctx -> ctx.getBeanFactory().registerSingleton("sharedLockStore", shared))
        .run(
            "--server.port=0",
            "--hostloom.backend=",
            "--wopi-host.docs-dir=" + docs,
            "--wopi-host.token-secret=" + SECRET);
  }

  static WopiHttp http(ConfigurableApplicationContext ctx) {
    int port = ((WebServerApplicationContext) ctx).getWebServer().getPort();
    return new WopiHttp("http://127.0.0.1:" + port);
  }

  @AfterAll
  static void stop() {
    if (a != null) {
      a.close();
    }
    if (b != null) {
      b.close();
    }
  }

  @Test
  void instancesAgreeOnEveryLockWhenRequestsAlternate() {
    WopiHttp one = hosts[0];
    WopiHttp two = hosts[1];
    String f = "shared.docx";
    assertThat(one.lock(f, token, "A").status()).isEqualTo(200);
    assertThat(two.getLock(f, token).header("X-WOPI-Lock")).contains("A");
    Reply conflict = two.lock(f, token, "B");
    assertThat(conflict.status()).isEqualTo(409);
    assertThat(conflict.header("X-WOPI-Lock")).contains("A");
    assertThat(two.refreshLock(f, token, "A").status()).isEqualTo(200);
    assertThat(one.unlockAndRelock(f, token, "B", "A").status()).isEqualTo(200);
    assertThat(two.putFile(f, token, "A", bytes("stale")).status()).isEqualTo(409);
    Reply put = two.putFile(f, token, "B", bytes("written by two"));
    assertThat(put.status()).isEqualTo(200);
    // both instances read the same folder: the same content and the same version
    assertThat(one.getFile(f, token).text()).isEqualTo("written by two");
    assertThat(one.getFile(f, token).header("X-WOPI-ItemVersion"))
        .isEqualTo(put.header("X-WOPI-ItemVersion"));
    assertThat(one.unlock(f, token, "A").status()).isEqualTo(409);
    assertThat(two.unlock(f, token, "B").status()).isEqualTo(200);
    assertThat(one.getLock(f, token).header("X-WOPI-Lock")).contains("");
  }

  @Test
  void concurrentLocksThroughBothInstancesHaveExactlyOneWinner() throws Exception {
    String f = "race.docx";
    Files.writeString(docs.resolve(f), "race");
    String t = a.getBean(AccessTokens.class).issue("alice", f, Duration.ofHours(1));
    int clients = 8;
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Callable<Reply>> calls = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        WopiHttp host = hosts[i % 2];
        String lockId = "client-" + i;
        calls.add(() -> host.lock(f, t, lockId));
      }
      List<Reply> replies = new ArrayList<>();
      for (Future<Reply> r : pool.invokeAll(calls)) {
        replies.add(r.get());
      }
      List<Reply> winners = replies.stream().filter(r -> r.status() == 200).toList();
      assertThat(winners).hasSize(1);
      String winner = hosts[0].getLock(f, t).header("X-WOPI-Lock").orElseThrow();
      assertThat(winner).startsWith("client-");
      for (Reply r : replies) {
        if (r.status() != 200) {
          assertThat(r.status()).isEqualTo(409);
          assertThat(r.header("X-WOPI-Lock")).contains(winner);
        }
      }
      assertThat(hosts[1].unlock(f, t, winner).status()).isEqualTo(200);
    } finally {
      pool.shutdownNow();
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
