package io.hostloom.wopihost;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.azure.AzuriteTestServer;
import io.hostloom.jdbc.PostgresTestServer;
import io.hostloom.redis.RedisTestServer;
import io.hostloom.testkit.wopi.WopiHistory;
import io.hostloom.testkit.wopi.WopiHistory.Request;
import io.hostloom.testkit.wopi.WopiLinearizabilityChecker;
import io.hostloom.wopihost.WopiHttp.Reply;
import io.hostloom.wopihost.security.AccessTokens;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two host instances (two application contexts, two HTTP ports) over one real lock backend (Redis,
 * PostgreSQL, Azurite, each started by its backend module's test launcher): six clients send 80
 * random LOCK / UnlockAndRelock / UNLOCK / REFRESH_LOCK / GET_LOCK requests each over HTTP on one
 * file, alternating between the instances, and the recorded history of statuses and {@code
 * X-WOPI-Lock} answers must be linearizable against the sequential WOPI lock model. A request that
 * got no answer (a 503 or a broken connection) may have taken effect or not.
 */
class SharedBackendLinearizabilityE2ETest {
  static final String SECRET = "linearizability-secret-0123456789";
  static final int CLIENTS = 6;
  static final int REQUESTS_PER_CLIENT = 80;

  @TempDir static Path docs;
  static RedisTestServer redis;
  static PostgresTestServer postgres;
  static AzuriteTestServer azurite;

  @BeforeAll
  static void startBackends() {
    redis = RedisTestServer.startNew();
    postgres = PostgresTestServer.startNew("wopi-host-e2e", false);
    azurite = AzuriteTestServer.shared();
  }

  @AfterAll
  static void stopBackends() {
    if (redis != null) {
      redis.close();
    }
    if (postgres != null) {
      postgres.close();
    }
  }

  static Stream<Arguments> backends() {
    return Stream.of(Arguments.of("redis"), Arguments.of("postgres"), Arguments.of("azure"));
  }

  /** The command-line arguments that point an instance at {@code backend}. */
  static List<String> backendArgs(String backend) {
    return switch (backend) {
      case "redis" -> List.of("--hostloom.backend=redis", "--hostloom.redis.uri=" + redis.uri());
      case "postgres" ->
          List.of(
              "--hostloom.backend=postgres",
              "--hostloom.postgres.create-table=true",
              "--spring.autoconfigure.exclude=",
              "--spring.datasource.url=" + postgres.jdbcUrl("postgres"));
      case "azure" ->
          List.of(
              "--hostloom.backend=azure",
              "--hostloom.azure.connection-string="
                  + azurite.connectionString("127.0.0.1", azurite.port()),
              "--hostloom.azure.container-name=wopi-e2e-" + UUID.randomUUID());
      default -> throw new IllegalArgumentException(backend);
    };
  }

  static ConfigurableApplicationContext instance(List<String> backendArgs) {
    List<String> args = new ArrayList<>(backendArgs);
    args.add("--server.port=0");
    args.add("--wopi-host.docs-dir=" + docs);
    args.add("--wopi-host.token-secret=" + SECRET);
    return new SpringApplicationBuilder(WopiHostApplication.class)
        .profiles("test")
        .run(args.toArray(String[]::new));
  }

  static WopiHttp http(ConfigurableApplicationContext ctx) {
    int port = ((WebServerApplicationContext) ctx).getWebServer().getPort();
    return new WopiHttp("http://127.0.0.1:" + port);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("backends")
  void requestsAlternatingBetweenTwoInstancesAreLinearizable(String backend) throws Exception {
    List<String> args = backendArgs(backend);
    String file = "lin-" + backend + "-" + UUID.randomUUID() + ".docx";
    Files.writeString(docs.resolve(file), "shared");
    try (ConfigurableApplicationContext a = instance(args);
        ConfigurableApplicationContext b = instance(args)) {
      WopiHttp[] hosts = {http(a), http(b)};
      String token = a.getBean(AccessTokens.class).issue("alice", file, Duration.ofHours(1));
      long seed = System.nanoTime();
      WopiHistory history = new WopiHistory();
      long start = System.nanoTime();
      run(hosts, file, token, seed, history);
      long ran = System.nanoTime() - start;

      start = System.nanoTime();
      WopiLinearizabilityChecker.Result result = WopiLinearizabilityChecker.check(history.ops());
      long checked = System.nanoTime() - start;
      long unknown = history.ops().stream().filter(WopiHistory.Op::unknown).count();
      long conflicts = history.ops().stream().filter(o -> o.status() == 409).count();
      System.out.printf(
          "[wopi linearizability e2e] %s: %d requests (%d x 409, %d without answer) over 2"
              + " instances in %d ms; checked in %d ms (%d search steps): %s%n",
          backend,
          result.ops(),
          conflicts,
          unknown,
          TimeUnit.NANOSECONDS.toMillis(ran),
          TimeUnit.NANOSECONDS.toMillis(checked),
          result.steps(),
          result.verdict());
      assertThat(result.verdict())
          .as("seed %d: %s", seed, result.explanation())
          .isEqualTo(WopiLinearizabilityChecker.Verdict.LINEARIZABLE);
      assertThat(result.ops()).isEqualTo(CLIENTS * REQUESTS_PER_CLIENT);
      assertThat(unknown).as("requests without answer").isLessThan(result.ops() / 10);
    }
  }

  /** Six clients, released together; client c sends request n to instance (c + n) % 2. */
  private static void run(
      WopiHttp[] hosts, String file, String token, long seed, WopiHistory history)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> clients = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        int client = c;
        clients.add(
            pool.submit(
                () -> {
                  go.await();
                  Random random = new Random(seed + client);
                  for (int n = 0; n < REQUESTS_PER_CLIENT; n++) {
                    WopiHttp host = hosts[(client + n) % hosts.length];
                    Request request = Request.random(random);
                    WopiHistory.Call call = history.invoke(client, file, request);
                    try {
                      Reply r = send(host, file, token, request);
                      if (r.status() == 200 || r.status() == 409) {
                        call.completed(r.status(), r.header("X-WOPI-Lock").orElse(null));
                      } else {
                        call.unknown(); // 503: the backend failed, the command may have applied
                      }
                    } catch (UncheckedIOException e) {
                      call.unknown();
                    }
                  }
                  return null;
                }));
      }
      go.countDown();
      for (Future<?> f : clients) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static Reply send(WopiHttp host, String file, String token, Request r) {
    return switch (r.kind()) {
      case LOCK -> host.lock(file, token, r.lock());
      case GET_LOCK -> host.getLock(file, token);
      case REFRESH_LOCK -> host.refreshLock(file, token, r.lock());
      case UNLOCK -> host.unlock(file, token, r.lock());
      case UNLOCK_AND_RELOCK -> host.unlockAndRelock(file, token, r.lock(), r.oldLock());
    };
  }
}
