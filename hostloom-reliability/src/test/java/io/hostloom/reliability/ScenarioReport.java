package io.hostloom.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * One row of the results table in {@code docs/reliability.md}: printed to stdout and appended to
 * {@code target/reliability-report.md} (or the file named by {@code hostloom.reliability.report}),
 * so the table can be filled from a real run.
 */
record ScenarioReport(
    String scenario, String backend, String load, String faults, String result, long violations) {
  private static final Object FILE_LOCK = new Object();
  private static boolean headerWritten;

  /** Prints and appends this row. */
  void publish() {
    String row =
        "| "
            + scenario
            + " | "
            + backend
            + " | "
            + load
            + " | "
            + faults
            + " | "
            + result
            + " | "
            + violations
            + " |";
    System.out.println("[reliability] " + row);
    Path file =
        Path.of(System.getProperty("hostloom.reliability.report", "target/reliability-report.md"));
    synchronized (FILE_LOCK) {
      try {
        if (file.getParent() != null) {
          Files.createDirectories(file.getParent());
        }
        StringBuilder text = new StringBuilder();
        if (!headerWritten) {
          headerWritten = true;
          text.append("\n## Run of ")
              .append(Instant.now().truncatedTo(ChronoUnit.SECONDS))
              .append(" (")
              .append(Soak.variant())
              .append(
                  ")\n\n| Scenario | Backend | Load | Faults injected | Result | Violations |\n")
              .append("|---|---|---|---|---|---|\n");
        }
        text.append(row).append('\n');
        Files.writeString(
            file,
            text,
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.APPEND);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot append to " + file, e);
      }
    }
  }
}
