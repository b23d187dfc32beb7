package io.hostloom.reliability;

import io.hostloom.testkit.LockEvent;
import io.hostloom.testkit.LockHistory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every scenario class shares: the backend under test, a fresh directory per test (ledgers,
 * worker logs, the fenced resource) and cleanup that runs even when a test fails.
 */
abstract class ScenarioBase {
  @TempDir Path dir;

  private final List<AutoCloseable> cleanup = new ArrayList<>();

  /** How long a worker JVM may take to start on a busy machine (scaled). */
  static final Duration START = Duration.ofSeconds(90);

  /** Arguments common to every worker of this backend. */
  Map<String, String> workerArgs(BackendSpec spec, String mode) {
    Map<String, String> a = new LinkedHashMap<>();
    spec.putInto(a);
    a.put("mode", mode);
    a.put("resource", "file:" + dir.resolve("resource"));
    a.put("namespace", "rel");
    a.put("hold", "PT0S");
    a.put("writeEvery", "PT0.05S");
    a.put("retryStep", "PT0.005S");
    a.put("maxWait", "PT10S");
    a.put("autoExtend", "false");
    a.put("onLost", "OBSERVE");
    a.put("threads", "1");
    a.put("grants", Long.toString(Long.MAX_VALUE));
    return a;
  }

  WorkerProcess worker(String label, Map<String, String> args) {
    return closeLater(WorkerProcess.start(label, dir, args));
  }

  /** Merged ledgers of {@code workers} plus the extra ledger files. */
  static List<LockEvent> history(List<WorkerProcess> workers, Path... more) {
    List<LockEvent> all = new ArrayList<>();
    for (WorkerProcess w : workers) {
      all.addAll(w.events());
    }
    all.addAll(LockHistory.readLedger(more));
    return all;
  }

  static String ms(long nanos) {
    return String.format(java.util.Locale.ROOT, "%.0f ms", nanos / 1e6);
  }

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
