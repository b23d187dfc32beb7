package io.hostloom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.testkit.TestTiming;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hostloom lock} as processes on one real backend; a subclass says which. */
abstract class LockCommandContract {
  private static final AtomicInteger SEQ = new AtomicInteger();

  @TempDir Path dir;

  /** A namespace of this test's own, so tests never share a key. */
  String namespace;

  /** The backend's URI for {@code --backend}. */
  abstract String backendUri();

  @BeforeEach
  void newNamespace() {
    namespace = "cli-" + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36);
  }

  Map<String, String> env() {
    return Map.of(
        "HOSTLOOM_BACKEND", backendUri(), "HOSTLOOM_NAMESPACE", namespace.toLowerCase(Locale.ROOT));
  }

  /** A shell command that appends start and end lines with its token to {@code ledger}. */
  static String ledgerScript(Path ledger) {
    String l = "'" + ledger + "'";
    return "echo \"start $HOSTLOOM_FENCING_TOKEN\" >> "
        + l
        + "; sleep 0.3; echo \"end $HOSTLOOM_FENCING_TOKEN\" >> "
        + l;
  }

  @Test
  void concurrentLocksNeverOverlapAndTheTokenGrows() throws Exception {
    Path ledger = dir.resolve("ledger");
    List<Hostloom> all = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      all.add(
          Hostloom.start(
              dir,
              env(),
              "lock",
              "shared-job",
              "--lease",
              "20s", // an attempt is bounded by the lease: 3 JVMs starting at once on 2 busy cores
              "--",
              "sh",
              "-c",
              ledgerScript(ledger)));
    }
    for (Hostloom h : all) {
      h.assertExit(0);
    }
    List<String> lines = Files.readAllLines(ledger);
    assertThat(lines).hasSize(6);
    long previous = 0;
    for (int i = 0; i < lines.size(); i += 2) {
      String start = lines.get(i);
      String end = lines.get(i + 1);
      assertThat(start).as("line %d of %s", i, lines).startsWith("start ");
      long token = Long.parseLong(start.substring("start ".length()));
      assertThat(end)
          .as("the run of token %d ends before the next starts: %s", token, lines)
          .isEqualTo("end " + token);
      assertThat(token).as("tokens grow: %s", lines).isGreaterThan(previous);
      previous = token;
    }
  }

  /**
   * Starts {@code hostloom lock ARGS -- sh -c "TRAP; touch started; LOOP"} and returns once the
   * command runs; the loop ends when {@code stop} exists ({@code null}: never).
   */
  Hostloom holding(String trap, Path stop, String... lockArgs) {
    Path started = dir.resolve("started-" + SEQ.incrementAndGet());
    String loop =
        stop == null
            ? "while true; do sleep 0.05; done"
            : "while [ ! -f '" + stop + "' ]; do sleep 0.05; done";
    List<String> args = new ArrayList<>(List.of("lock"));
    args.addAll(List.of(lockArgs));
    args.addAll(List.of("--", "sh", "-c", trap + "touch '" + started + "'; " + loop));
    Hostloom holder = Hostloom.start(dir, env(), args.toArray(String[]::new));
    TestTiming.await(
        "the command to start",
        () -> Files.exists(started) || !holder.process.isAlive(),
        Duration.ofSeconds(60));
    assertThat(started).as("started; stderr: %s", holder.stderr()).exists();
    return holder;
  }

  @Test
  void skipIfBusyAndAnExpiredWaitExit75() {
    Path stop = dir.resolve("stop");
    Hostloom holder = holding("", stop, "busy-job");
    Hostloom skipped =
        Hostloom.run(dir, env(), "lock", "busy-job", "--skip-if-busy", "--", "touch", "ran-1");
    skipped.assertExit(75);
    assertThat(skipped.stderr()).contains("busy");
    Hostloom.run(dir, env(), "lock", "busy-job", "--wait", "300ms", "--", "touch", "ran-2")
        .assertExit(75);
    assertThat(dir.resolve("ran-1")).doesNotExist();
    assertThat(dir.resolve("ran-2")).doesNotExist();
    touch(stop);
    holder.assertExit(0);
    // released at the command's end: the next one gets it at once
    Hostloom.run(dir, env(), "lock", "busy-job", "--skip-if-busy", "--", "touch", "ran-3")
        .assertExit(0);
    assertThat(dir.resolve("ran-3")).exists();
  }

  static void touch(Path file) {
    try {
      Files.writeString(file, "");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
