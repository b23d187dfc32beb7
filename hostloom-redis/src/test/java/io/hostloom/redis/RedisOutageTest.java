package io.hostloom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.testkit.TestTiming;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The server goes away under load and comes back on the same port: callers get typed failures and
 * never a grant while it is down, and the same backend works again afterwards. Each test has its
 * own server, so stopping it disturbs no other test.
 */
class RedisOutageTest {
  private static final Duration LEASE = Duration.ofSeconds(30);

  private RedisServerProcess redis;
  private RedisLockBackend backend;

  @BeforeEach
  void start() {
    redis = RedisServerProcess.startNew();
  }

  @AfterEach
  void stop() {
    if (backend != null) {
      backend.close();
    }
    redis.close();
  }

  /** One call's start, end and outcome (a token when granted, a failure kind when failed). */
  private record Call(
      long startNanos,
      long endNanos,
      String op,
      boolean granted,
      long token,
      LockFailureKind kind) {}

  @Test
  void killedUnderLoadGivesTypedFailuresNoFalseGrantsAndRecoversWithoutANewBackend()
      throws Exception {
    backend =
        RedisLockBackend.builder().uri(redis.uri()).commandTimeout(Duration.ofSeconds(1)).build();
    ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
    AtomicBoolean running = new AtomicBoolean(true);
    List<String> keys = List.of(key(), key(), key());
    ExecutorService pool = Executors.newFixedThreadPool(4);
    List<Future<?>> workers = new ArrayList<>();
    for (int w = 0; w < 4; w++) {
      String owner = "worker-" + w;
      workers.add(
          pool.submit(
              () -> {
                int i = 0;
                while (running.get()) {
                  String key = keys.get(i++ % keys.size());
                  Call acquired =
                      call("acquire", () -> backend.acquire(key, owner, "", LEASE), calls);
                  if (acquired.granted()) {
                    call("extend", () -> backend.extend(key, owner, LEASE), calls);
                    call("release", () -> backend.release(key, owner), calls);
                  }
                }
              }));
    }
    TestTiming.await(
        "some grants before the outage",
        () -> calls.stream().filter(Call::granted).count() >= 20,
        Duration.ofSeconds(10));

    redis.kill();
    long killed = System.nanoTime();
    TestTiming.await(
        "failures while the server is down",
        () -> calls.stream().filter(c -> c.kind() != null && c.startNanos() > killed).count() >= 20,
        Duration.ofSeconds(10));
    long restarting = System.nanoTime();
    running.set(false);
    for (Future<?> f : workers) {
      f.get(10, TimeUnit.SECONDS);
    }
    pool.shutdown();
    long tokenBefore = calls.stream().mapToLong(Call::token).max().orElseThrow();

    // down: every call that started after the kill and ended before the restart failed, typed
    List<Call> down =
        calls.stream().filter(c -> c.startNanos() > killed && c.endNanos() < restarting).toList();
    assertThat(down).isNotEmpty().noneMatch(Call::granted).allMatch(c -> c.kind() != null);
    Map<LockFailureKind, Long> kinds = new EnumMap<>(LockFailureKind.class);
    calls.stream().filter(c -> c.kind() != null).forEach(c -> kinds.merge(c.kind(), 1L, Long::sum));
    // once Lettuce knows the connection is gone, commands are rejected unsent
    long firstKnown =
        down.stream()
            .filter(c -> c.kind() == LockFailureKind.UNAVAILABLE)
            .mapToLong(Call::endNanos)
            .min()
            .orElseThrow();
    assertThat(down.stream().filter(c -> c.startNanos() > firstKnown))
        .isNotEmpty()
        .allMatch(c -> c.kind() == LockFailureKind.UNAVAILABLE);

    redis.start();
    // nothing that was in flight at the kill is replayed after the reconnect
    TestTiming.await("reconnected", () -> healthy(), Duration.ofSeconds(10));
    assertThat(redis.command("DBSIZE")).isEqualTo("0");

    String key = keys.get(0);
    AcquireOutcome after = Futures.await(backend.acquire(key, "after-restart", "", LEASE));
    assertThat(after.granted()).isTrue();
    assertThat(after.fencingToken()).isGreaterThan(tokenBefore);
    System.out.printf(
        "[redis outage] calls=%d, grants=%d, failures by kind=%s%n",
        calls.size(), calls.stream().filter(Call::granted).count(), kinds);
  }

  @Test
  void aFrozenServerTimesOutAndThawsWithoutANewBackend() throws Exception {
    backend =
        RedisLockBackend.builder().uri(redis.uri()).commandTimeout(Duration.ofMillis(300)).build();
    String key = key();
    assertThat(Futures.await(backend.acquire(key, "a", "", LEASE)).granted()).isTrue();

    signal("STOP");
    try {
      assertThat(kindOf(backend.acquire(key, "b", "", LEASE))).isEqualTo(LockFailureKind.TIMEOUT);
      assertThat(kindOf(backend.release(key, "a"))).isEqualTo(LockFailureKind.TIMEOUT);
    } finally {
      signal("CONT");
    }
    // the timed-out release may or may not have run; the lease is owner-checked either way
    TestTiming.await(
        "answers again",
        () -> {
          try {
            Futures.await(backend.read(key));
            return true;
          } catch (TestTiming.CompletionFailure e) {
            return false;
          }
        },
        Duration.ofSeconds(5));
  }

  @Test
  void builtWhileDownFailsUnavailableThenWorksOnceTheServerIsUp() {
    redis.stop();
    backend =
        RedisLockBackend.builder().uri(redis.uri()).commandTimeout(Duration.ofSeconds(1)).build();
    String key = key();
    assertThat(kindOf(backend.acquire(key, "a", "", LEASE))).isEqualTo(LockFailureKind.UNAVAILABLE);
    assertThat(Futures.await(backend.checkHealth()).healthy()).isFalse();

    redis.start();
    assertThat(Futures.await(backend.acquire(key, "a", "", LEASE)).granted()).isTrue();
    assertThat(Futures.await(backend.checkHealth()).healthy()).isTrue();
  }

  private boolean healthy() {
    return Futures.await(backend.checkHealth()).healthy();
  }

  private static String key() {
    return "outage:lock:" + UUID.randomUUID();
  }

  private static Call call(
      String op,
      java.util.function.Supplier<CompletableFuture<?>> send,
      ConcurrentLinkedQueue<Call> calls) {
    long start = System.nanoTime();
    Call c;
    try {
      Object v = send.get().get(10, TimeUnit.SECONDS);
      boolean granted = v instanceof AcquireOutcome o && o.granted();
      long token = granted ? ((AcquireOutcome) v).fencingToken() : 0;
      c = new Call(start, System.nanoTime(), op, granted, token, null);
    } catch (ExecutionException e) {
      assertThat(e.getCause()).isInstanceOf(LockBackendException.class);
      c =
          new Call(
              start, System.nanoTime(), op, false, 0, ((LockBackendException) e.getCause()).kind());
    } catch (TimeoutException e) {
      throw new AssertionError(op + " was not bounded by the command timeout", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    calls.add(c);
    return c;
  }

  private static LockFailureKind kindOf(CompletableFuture<?> future) {
    try {
      future.get(10, TimeUnit.SECONDS);
      throw new AssertionError("expected a failure");
    } catch (ExecutionException e) {
      assertThat(e.getCause()).isInstanceOf(LockBackendException.class);
      return ((LockBackendException) e.getCause()).kind();
    } catch (InterruptedException | TimeoutException e) {
      throw new AssertionError(e);
    }
  }

  private void signal(String signal) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder("kill", "-" + signal, Long.toString(redis.pid())).inheritIO().start();
    assertThat(p.waitFor()).isZero();
  }
}
