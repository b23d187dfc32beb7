package io.hostloom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input, help, completion and the pass-through of exit statuses, with hostloom as a process on
 * the in-process {@code memory:} backend (no server needed).
 */
class CommandLineTest {
  private static final Map<String, String> MEMORY = Map.of("HOSTLOOM_BACKEND", "memory:");

  @TempDir Path dir;

  @Test
  void badInputIsOneLineAndExit64() {
    String[][] cases = {
      {"lock", "--backend", "nosuch://x", "job", "--", "true"},
      {"lock", "--backend", "memory:"},
      {"lock", "--backend", "memory:", "--wait", "-5s", "job", "--", "true"},
      {"lock", "--backend", "memory:", "--lease", "soon", "job", "--", "true"},
      {"lock", "--backend", "memory:", "job"},
      {"lock", "--backend", "memory:", "--skip-if-busy", "--wait", "1s", "job", "--", "true"},
      {"lock", "--backend", "memory:", "--namespace", "Bad Space", "job", "--", "true"},
      {"lock", "job", "--", "true"},
      {"leader", "--backend", "memory:", "--lease", "-1s", "role", "--", "true"},
      {"status", "--backend", "memory:"},
      {"wopi", "unlock", "--backend", "memory:", "file-1"},
      {"nosuchcommand"},
    };
    for (String[] args : cases) {
      Hostloom h = Hostloom.run(dir, Map.of(), args);
      assertThat(h.awaitExit()).as("%s: %s", String.join(" ", args), h.stderr()).isEqualTo(64);
      assertThat(h.stderr().strip().lines()).as(String.join(" ", args)).hasSize(1);
      assertThat(h.stderr()).startsWith("hostloom: ");
    }
  }

  @Test
  void everyCommandHasHelp() {
    String[][] cases = {
      {"--help"},
      {"lock", "--help"},
      {"leader", "--help"},
      {"status", "--help"},
      {"wopi", "--help"},
      {"wopi", "get", "--help"},
      {"wopi", "unlock", "--help"},
      {"completion", "--help"}
    };
    for (String[] args : cases) {
      Hostloom h = Hostloom.run(dir, Map.of(), args).assertExit(0);
      assertThat(h.stdout()).as(String.join(" ", args)).startsWith("Usage: hostloom");
    }
  }

  @Test
  void completionIsABashScriptForEveryCommand() {
    Hostloom h = Hostloom.run(dir, Map.of(), "completion").assertExit(0);
    assertThat(h.stdout())
        .contains("complete -F")
        .contains("lock")
        .contains("leader")
        .contains("--skip-if-busy");
  }

  @Test
  void theCommandsExitStatusAndEnvironmentPassThrough() {
    Hostloom h =
        Hostloom.run(
            dir,
            MEMORY,
            "lock",
            "nightly",
            "--owner",
            "ops@box",
            "--",
            "sh",
            "-c",
            "echo \"$HOSTLOOM_LOCK_NAME $HOSTLOOM_FENCING_TOKEN $HOSTLOOM_OWNER $HOSTLOOM_NAMESPACE\";"
                + " exit 3");
    h.assertExit(3);
    assertThat(h.stdout().strip()).matches("nightly [1-9][0-9]* ops@box hostloom");
  }

  @Test
  void aCommandEndedBySignalIsReportedAsAShellDoes() {
    Hostloom.run(dir, MEMORY, "lock", "job", "--", "sh", "-c", "kill -TERM $$").assertExit(143);
  }

  @Test
  void aMissingCommandIs127() {
    Hostloom h =
        Hostloom.run(dir, MEMORY, "lock", "job", "--", "./no-such-program").assertExit(127);
    assertThat(h.stderr()).contains("no-such-program");
  }
}
