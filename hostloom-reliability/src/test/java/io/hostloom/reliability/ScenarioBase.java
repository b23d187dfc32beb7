package io.hostloom.reliability;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every scenario class shares: the backend under test, a fresh directory per test (ledgers,
 * worker logs, the fenced resource) and cleanup that runs even when a test fails.
 */
abstract class ScenarioBase {
  @TempDir Path dir;

  private final List<AutoCloseable> cleanup = new ArrayList<>();

  /** The running backend server; the test class starts it once and closes it after all tests. */
  abstract BackendTarget target();

  /** Registers {@code c} to be closed after the test (in reverse order), even when it fails. */
  <T extends AutoCloseable> T closeLater(T c) {
    cleanup.add(c);
    return c;
  }

  @AfterEach
  void cleanUp() throws Exception {
    Exception first = null;
    for (int i = cleanup.size() - 1; i >= 0; i--) {
      try {
        cleanup.get(i).close();
      } catch (Exception e) {
        if (first == null) {
          first = e;
        }
      }
    }
    cleanup.clear();
    if (first != null) {
      throw first;
    }
  }
}
