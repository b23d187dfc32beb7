package io.hostloom.testkit.migration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An append-only ledger of a scheduled job's runs, shared by the processes that run it: one line
 * {@code <occurrence> <node>} per run, each a single {@code O_APPEND} write, so lines of several
 * processes never interleave and a killed process loses at most its last line.
 */
public final class OccurrenceLedger {
  private OccurrenceLedger() {}

  /** Records that {@code node} ran {@code occurrence}. */
  public static void append(Path file, int occurrence, String node) {
    if (node.isEmpty() || node.chars().anyMatch(Character::isWhitespace)) {
      throw new IllegalArgumentException("node must be one word but was \"" + node + "\"");
    }
    byte[] line = (occurrence + " " + node + "\n").getBytes(StandardCharsets.UTF_8);
    try {
      Files.write(file, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to " + file, e);
    }
  }

  /** The runs recorded in {@code file} (none when it does not exist). */
  public static Verdict read(Path file) {
    Map<Integer, List<String>> runs = new TreeMap<>();
    if (Files.exists(file)) {
      try {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          if (line.isBlank()) {
            continue;
          }
          String t = line.trim();
          int space = t.indexOf(' ');
          if (space < 1 || t.indexOf(' ', space + 1) >= 0) {
            throw new IllegalStateException("malformed ledger line \"" + line + "\" in " + file);
          }
          runs.computeIfAbsent(Integer.parseInt(t.substring(0, space)), k -> new ArrayList<>())
              .add(t.substring(space + 1));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + file, e);
      }
    }
    return new Verdict(runs);
  }

  /**
   * The runs per occurrence, and what a rolling migration needs of them.
   *
   * @param runs for each occurrence that ran, the nodes that ran it, in ledger order
   */
  public record Verdict(Map<Integer, List<String>> runs) {
    public Verdict {
      runs = Map.copyOf(runs);
    }

    /** The occurrences that ran more than once, in order. */
    public List<Integer> doubleRuns() {
      return runs.entrySet().stream()
          .filter(e -> e.getValue().size() > 1)
          .map(Map.Entry::getKey)
          .sorted()
          .toList();
    }

    /** How many occurrences {@code node} ran. */
    public long runsOf(String node) {
      return runs.values().stream().flatMap(List::stream).filter(node::equals).count();
    }

    /**
     * Throws {@link AssertionError} unless every occurrence ran at most once and each of {@code
     * nodes} ran at least one (so both sides really competed for the same lock).
     */
    public void assertExclusiveAndShared(List<String> nodes) {
      List<Integer> twice = doubleRuns();
      if (!twice.isEmpty()) {
        throw new AssertionError(
            "occurrences ran more than once: "
                + twice.stream().map(o -> o + "=" + runs.get(o)).toList());
      }
      for (String node : nodes) {
        if (runsOf(node) == 0) {
          throw new AssertionError(node + " ran no occurrence; runs: " + runs);
        }
      }
    }
  }
}
