package io.hostloom.cli;

import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/** What {@code lock} and {@code leader} share about their command: how it is stopped, its owner. */
final class ChildOptions {
  @Option(
      names = "--grace",
      paramLabel = "DURATION",
      converter = Durations.class,
      defaultValue = "10s",
      description =
          "Between SIGTERM and SIGKILL when COMMAND is stopped (default: ${DEFAULT-VALUE}).")
  Duration grace;

  @Option(
      names = "--owner",
      paramLabel = "TEXT",
      description = "HOSTLOOM_OWNER for COMMAND (default: user@host:pid).")
  String owner;

  /**
   * The command given after {@code --} (picocli allows no positional parameters in a mixin after
   * the host's own).
   *
   * @throws UsageException when there is none ({@code synopsis} shows how to give it)
   */
  static List<String> required(List<String> command, String synopsis) {
    if (command == null || command.isEmpty()) {
      throw new UsageException("missing COMMAND: " + synopsis);
    }
    return command;
  }

  String owner() {
    return owner != null ? owner : Identity.describe();
  }
}
