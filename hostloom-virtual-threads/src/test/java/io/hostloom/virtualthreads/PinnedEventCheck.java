package io.hostloom.virtualthreads;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;

/**
 * A {@link PinnedEvents} recording that a test ends with "no virtual thread was pinned". Pins while
 * the JDK loads a class are not counted: the class path lookup ({@code ZipFile.getEntry}) holds a
 * monitor under a native frame, which no code running on a virtual thread can avoid (a framework's
 * first use of a class pinned a Boot scheduler thread for 5 ms in CI); they are printed.
 */
public final class PinnedEventCheck {
  private final PinnedEvents recording;

  private PinnedEventCheck(PinnedEvents recording) {
    this.recording = recording;
  }

  /** Starts recording pinned virtual threads. */
  public static PinnedEventCheck start() {
    return new PinnedEventCheck(PinnedEvents.start());
  }

  /** Stops, prints the count and fails with each event's reason and stack if there was any. */
  public void assertNone(String during) throws IOException {
    List<RecordedEvent> all = recording.stop();
    List<RecordedEvent> events = all.stream().filter(e -> !loadingAClass(e)).toList();
    System.out.println(
        "[pinned virtual threads "
            + during
            + "] "
            + events.size()
            + " (and "
            + (all.size() - events.size())
            + " while the JDK loaded a class)");
    assertThat(events).as("pinned %s:%n%s", during, PinnedEvents.describe(events)).isEmpty();
  }

  private static boolean loadingAClass(RecordedEvent e) {
    return e.getStackTrace() != null
        && e.getStackTrace().getFrames().stream()
            .anyMatch(
                f ->
                    f.getMethod().getType().getName().equals("java.lang.ClassLoader")
                        && f.getMethod().getName().equals("loadClass"));
  }
}
