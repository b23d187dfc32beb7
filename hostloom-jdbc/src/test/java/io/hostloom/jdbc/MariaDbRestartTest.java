package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A MariaDB server of its own (default durability) is stopped cleanly and killed with {@code kill
 * -9}: a live lease granted before survives with its owner and token, tokens keep increasing (the
 * sequence skips its cached values, never goes back), calls during the outage fail only {@code
 * UNAVAILABLE} or {@code TIMEOUT}, and the same backend works again afterwards.
 */
class MariaDbRestartTest {
  private static final Duration LONG = Duration.ofMinutes(5);
  private static final Duration WAIT = Duration.ofSeconds(30);

  private static MariaDbServer server;
  private static JdbcLockBackend backend;

  @BeforeAll
  static void start() {
    server = MariaDbServer.startNew("restart", true);
    server.createDatabase("restart");
    backend =
        MariaDbTestDatabase.backendOn(server.pool("restart", 4, Duration.ofMillis(500)))
            .commandTimeout(Duration.ofSeconds(2))
            .createTableIfMissing(true)
            .build();
  }

  @AfterAll
  static void stop() {
    backend.close();
    server.close();
  }

  @Test
  void leasesAndTokensSurviveACleanStop() throws Exception {
    survives(server::stop);
  }

  @Test
  void leasesAndTokensSurviveKillMinus9() throws Exception {
    survives(server::kill);
  }

  private static void survives(Runnable outage) throws Exception {
    String held = "held-" + System.nanoTime();
    String released = "released-" + System.nanoTime();
    long heldToken = TestTiming.get(backend.acquire(held, "a", "d", LONG), WAIT).fencingToken();
    long releasedToken =
        TestTiming.get(backend.acquire(released, "a", "", LONG), WAIT).fencingToken();
    assertThat(TestTiming.get(backend.release(released, "a"), WAIT).released()).isTrue();

    outage.run();
    LockFailureKind kind =
        failureKind(backend.acquire("during-" + System.nanoTime(), "b", "", LONG));
    assertThat(kind)
        .as("a call while the server is down")
        .isIn(LockFailureKind.UNAVAILABLE, LockFailureKind.TIMEOUT);
    server.start();

    Optional<LeaseRecord> record = awaitAnswer(() -> backend.read(held).get(5, TimeUnit.SECONDS));
    assertThat(record).as("the lease granted before the outage").isPresent();
    assertThat(record.get().owner()).isEqualTo("a");
    assertThat(record.get().fencingToken()).isEqualTo(heldToken);
    assertThat(TestTiming.get(backend.acquire(held, "b", "", LONG), WAIT).granted())
        .as("still held by its owner")
        .isFalse();
    AcquireOutcome again = TestTiming.get(backend.acquire(released, "b", "", LONG), WAIT);
    assertThat(again.granted()).isTrue();
    assertThat(again.fencingToken())
        .as("the token after the restart")
        .isGreaterThan(Math.max(heldToken, releasedToken));
    System.out.printf(
        "[restart] tokens before %d, %d; after %d; failure during the outage: %s%n",
        heldToken, releasedToken, again.fencingToken(), kind);
  }

  private static LockFailureKind failureKind(java.util.concurrent.CompletableFuture<?> call)
      throws InterruptedException, TimeoutException {
    try {
      call.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      throw new AssertionError("a call succeeded while the server was down");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() instanceof CompletionException c ? c.getCause() : e.getCause();
      assertThat(cause).isInstanceOf(LockBackendException.class);
      return ((LockBackendException) cause).kind();
    }
  }

  /** The first answer once the pool reconnects (bounded: the server is up again). */
  private static <T> T awaitAnswer(java.util.concurrent.Callable<T> call) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      try {
        return call.call();
      } catch (ExecutionException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(100); // polling for reconnection, not timing a behaviour
      }
    }
  }
}
