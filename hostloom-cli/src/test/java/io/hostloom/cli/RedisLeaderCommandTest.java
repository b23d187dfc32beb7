package io.hostloom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.redis.RedisServerProcess;
import io.hostloom.testkit.TestTiming;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hostloom leader} as processes on a real Redis. */
class RedisLeaderCommandTest {
  @TempDir Path dir;

  private final String namespace =
      "cli-" + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36);

  private Map<String, String> env() {
    return Map.of(
        "HOSTLOOM_BACKEND", RedisServerProcess.shared().uri(), "HOSTLOOM_NAMESPACE", namespace);
  }

  /** A leader whose command appends "lead TERM ID" to the ledger, writes its pid, and sleeps. */
  private Hostloom leader(String id, Path ledger, String... extra) {
    String script =
        "echo \"lead $HOSTLOOM_FENCING_TOKEN "
            + id
            + " $HOSTLOOM_ROLE\" >> '"
            + ledger
            + "'; echo $$ > '"
            + dir.resolve("pid-" + id)
            + "'; exec sleep 60";
    List<String> args =
        new java.util.ArrayList<>(
            List.of("leader", "reports", "--lease", "3s", "--retry", "200ms", "--grace", "5s"));
    args.addAll(List.of(extra));
    args.addAll(List.of("--", "sh", "-c", script));
    return Hostloom.start(dir, env(), args.toArray(String[]::new));
  }

  private static List<String> lines(Path ledger) {
    try {
      return Files.exists(ledger) ? Files.readAllLines(ledger) : List.of();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void theLeadershipMovesWhenTheLeaderIsKilled() throws Exception {
    Path ledger = dir.resolve("ledger");
    Hostloom a = leader("A", ledger);
    Hostloom b = leader("B", ledger);
    TestTiming.await("a leader", () -> lines(ledger).size() == 1, Duration.ofSeconds(60));
    String[] first = lines(ledger).get(0).split(" ", -1);
    assertThat(first[3]).isEqualTo("reports");
    Hostloom killed = first[2].equals("A") ? a : b;
    Hostloom other = killed == a ? b : a;
    String otherId = killed == a ? "B" : "A";
    killed.signal("KILL");
    killed.awaitExit();
    Hostloom.signal(
        Long.parseLong(Files.readString(dir.resolve("pid-" + first[2])).strip()), "KILL");
    TestTiming.await("the next leader", () -> lines(ledger).size() == 2, Duration.ofSeconds(60));
    String[] second = lines(ledger).get(1).split(" ", -1);
    assertThat(second[2]).isEqualTo(otherId);
    assertThat(Long.parseLong(second[1])).isGreaterThan(Long.parseLong(first[1]));
    other.signal("TERM"); // forwarded: sleep ends by SIGTERM
    other.assertExit(143);
  }

  @Test
  void onceExits76WhenTheTermIsLost() {
    Path ledger = dir.resolve("ledger");
    Hostloom a = leader("A", ledger, "--once");
    TestTiming.await("a leader", () -> lines(ledger).size() == 1, Duration.ofSeconds(60));
    RedisLockCommandTest.connect();
    try {
      RedisLockCommandTest.redis.sync().del("hl:{" + namespace + ":lock:leader:reports}");
    } finally {
      RedisLockCommandTest.disconnect();
    }
    a.assertExit(76);
    assertThat(a.stderr()).contains("leadership of 'reports'");
  }
}
