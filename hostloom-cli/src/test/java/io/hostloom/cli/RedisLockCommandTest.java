package io.hostloom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.redis.RedisLockBackend;
import io.hostloom.redis.RedisServerProcess;
import io.hostloom.testkit.TestTiming;
import io.hostloom.wopi.WopiLockProvider;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code hostloom lock} and {@code status} on a real Redis: besides the contract, a killed
 * hostloom, a lost lease, signals and the minimum hold.
 */
class RedisLockCommandTest extends LockCommandContract {
  static RedisClient client;
  static StatefulRedisConnection<String, String> redis;

  @BeforeAll
  static void connect() {
    client = RedisClient.create(RedisServerProcess.shared().uri());
    redis = client.connect();
  }

  @AfterAll
  static void disconnect() {
    redis.close();
    client.shutdown();
  }

  @Override
  String backendUri() {
    return RedisServerProcess.shared().uri();
  }

  /** Deletes the lease of kernel key {@code name} on the server (RedisKeyLayout's lease name). */
  void deleteLease(String name) {
    assertThat(redis.sync().del("hl:{" + namespace + ":lock:" + name + "}")).isEqualTo(1L);
  }

  /** A command that writes its pid, then sleeps (so a kill -9 of hostloom can clean it up). */
  static String sleeper(Path pidFile) {
    return "echo $$ > '"
        + pidFile
        + ".tmp'; mv '"
        + pidFile
        + ".tmp' '"
        + pidFile
        + "'; exec sleep 60";
  }

  static long pid(Path pidFile) throws Exception {
    return Long.parseLong(Files.readString(pidFile).strip());
  }

  @Test
  void aKilledHostloomFreesTheLockAfterItsLease() throws Exception {
    Path pidFile = dir.resolve("pid");
    Hostloom holder =
        Hostloom.start(
            dir, env(), "lock", "crash-job", "--lease", "3s", "--", "sh", "-c", sleeper(pidFile));
    Hostloom.awaitFile(pidFile);
    holder.signal("KILL");
    holder.awaitExit();
    Hostloom.signal(pid(pidFile), "KILL"); // the orphaned command (see the README)
    Hostloom next =
        Hostloom.run(dir, env(), "lock", "crash-job", "--wait", "30s", "--", "touch", "next-ran");
    next.assertExit(0);
    assertThat(dir.resolve("next-ran")).exists();
  }

  @Test
  void aLostLeaseStopsTheCommandWithExit76() throws Exception {
    Path trapped = dir.resolve("trapped");
    Hostloom holder =
        holding(
            "trap 'echo TERM > \"" + trapped + "\"; exit 0' TERM; ",
            null,
            "lost-job",
            "--lease",
            "3s",
            "--grace",
            "20s");
    deleteLease("lost-job");
    holder.assertExit(76);
    assertThat(Hostloom.read(trapped).strip()).isEqualTo("TERM");
    assertThat(holder.stderr()).contains("lost");
  }

  @Test
  void aCommandIgnoringSigtermIsKilledAfterTheGrace() {
    Hostloom holder =
        holding("trap '' TERM; ", null, "stubborn-job", "--lease", "3s", "--grace", "500ms");
    deleteLease("stubborn-job");
    holder.assertExit(76);
  }

  @Test
  void sigtermAndSigintAreForwardedAndTheLockReleased() {
    for (String signal : List.of("TERM", "INT")) {
      Path got = dir.resolve("got-" + signal);
      Hostloom holder =
          holding(
              "trap 'echo " + signal + " > \"" + got + "\"; exit 7' " + signal + "; ",
              null,
              "signal-job");
      holder.signal(signal);
      holder.assertExit(7);
      assertThat(Hostloom.read(got).strip()).isEqualTo(signal);
      // the 30 s lease was released, not left to expire
      Hostloom.run(dir, env(), "lock", "signal-job", "--skip-if-busy", "--", "true").assertExit(0);
    }
  }

  @Test
  void aSignalWhileWaitingEndsTheWaitWithoutRunningTheCommand() {
    Path stop = dir.resolve("stop");
    Hostloom holder = holding("", stop, "wait-job");
    Path waiting = dir.resolve("waiting");
    Hostloom waiter =
        Hostloom.start(dir, env(), "lock", "wait-job", "-v", "--", "touch", waiting.toString());
    TestTiming.await(
        "the waiter waits",
        () -> waiter.stderr().contains("is busy, waiting"),
        Duration.ofSeconds(60));
    waiter.signal("TERM");
    waiter.assertExit(143);
    assertThat(waiting).doesNotExist();
    touch(stop);
    holder.assertExit(0);
  }

  @Test
  void minHoldKeepsTheLockAfterTheCommandEndedAndHostloomExited() {
    Path ran = dir.resolve("ran");
    Hostloom.run(
            dir,
            env(),
            "lock",
            "hold-job",
            "--lease",
            "3s",
            "--min-hold",
            "60s",
            "--",
            "touch",
            ran.toString())
        .assertExit(0); // hostloom is gone; the backend keeps the lease to the minimum
    assertThat(ran).exists();
    Hostloom.run(dir, env(), "lock", "hold-job", "--skip-if-busy", "--", "true").assertExit(75);
    Hostloom status = Hostloom.run(dir, env(), "status", "hold-job").assertExit(0);
    assertThat(status.stdout()).startsWith("hold-job: held, fencing token ");
    Hostloom json = Hostloom.run(dir, env(), "status", "hold-job", "--json").assertExit(0);
    assertThat(json.stdout()).contains("\"held\":true");
    long remaining =
        Long.parseLong(
            json.stdout().replaceAll("(?s).*\"remainingMillis\":(\\d+).*", "$1").strip());
    assertThat(remaining)
        .as("the lease runs to the minimum, not the 3 s lease")
        .isGreaterThan(20_000);
  }

  @Test
  void wopiGetShowsTheLockAndUnlockNeedsItsId() {
    RedisLockBackend backend = RedisLockBackend.builder().uri(backendUri()).build();
    try {
      WopiLockProvider wopi = WopiLockProvider.create(backend);
      String fileId = "file-" + namespace;
      assertThat(wopi.add(fileId, "lock-A").success()).isTrue();
      Hostloom get = Hostloom.run(dir, env(), "wopi", "get", fileId).assertExit(0);
      assertThat(get.stdout()).startsWith(fileId + ": locked, lock id lock-A, refreshed ");
      Hostloom json = Hostloom.run(dir, env(), "wopi", "get", fileId, "--json").assertExit(0);
      assertThat(json.stdout()).contains("\"locked\":true,\"lockId\":\"lock-A\"");
      Hostloom wrong =
          Hostloom.run(dir, env(), "wopi", "unlock", fileId, "--lock-id", "lock-B").assertExit(1);
      assertThat(wrong.stdout()).contains("is locked with lock id lock-A");
      assertThat(wopi.getLock(fileId)).isPresent();
      Hostloom.run(dir, env(), "wopi", "unlock", fileId, "--lock-id", "lock-A").assertExit(0);
      assertThat(wopi.getLock(fileId)).isEmpty();
    } finally {
      backend.close();
    }
  }

  @Test
  void anUnreachableBackendExits69() {
    Hostloom h =
        Hostloom.run(
            dir,
            env(),
            "lock",
            "--backend",
            "redis://127.0.0.1:" + io.hostloom.testkit.server.ServerProcess.freePort(),
            "job",
            "--",
            "true");
    h.assertExit(69);
    assertThat(h.stderr()).contains("backend unavailable");
  }
}
