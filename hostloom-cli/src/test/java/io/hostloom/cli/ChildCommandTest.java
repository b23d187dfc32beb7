package io.hostloom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.testkit.TestTiming;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The signal a command gets is the one hostloom caught, also when the supervisor's thread carries
 * the interrupt that announced it (a signal caught while the command was being started).
 */
class ChildCommandTest {
  @TempDir Path dir;

  @Test
  void anInterruptedSupervisorStillPassesSigintOnAsSigint() throws Exception {
    Path started = dir.resolve("started");
    ChildCommand c =
        ChildCommand.start(
            List.of(
                "sh",
                "-c",
                "trap 'exit 7' INT; touch '" + started + "'; while true; do sleep 0.05; done"),
            Map.of());
    try {
      TestTiming.await("the command to start", () -> Files.exists(started), Duration.ofSeconds(30));
      Thread.currentThread().interrupt();
      c.signal("INT");
      assertThat(Thread.interrupted()).as("the interrupt status is kept").isTrue();
      assertThat(c.waitFor()).as("exit status: the INT trap's, not SIGTERM's 143").isEqualTo(7);
    } finally {
      Thread.interrupted();
      c.signal("KILL");
    }
  }
}
