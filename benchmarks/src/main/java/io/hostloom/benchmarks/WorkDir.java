package io.hostloom.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Clean-up of the temporary directories a run writes (JFR recordings). */
public final class WorkDir {
  private WorkDir() {}

  /** Deletes {@code dir} and everything under it; best effort. */
  public static void delete(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | RuntimeException e) {
      // best effort: a temp dir left behind is harmless
    }
  }
}
