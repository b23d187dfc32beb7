package io.hostloom.virtualthreads;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Records JFR {@code jdk.VirtualThreadPinned} events with no duration threshold (the JDK's default
 * is 20 ms: a short pin would go unseen), with their stacks, from {@link #start()} to {@link
 * #stop()}: every time a virtual thread blocked while it could not unmount from its carrier.
 */
final class PinnedEvents {
  static final String EVENT = "jdk.VirtualThreadPinned";

  private final Recording recording = new Recording();

  private PinnedEvents() {
    recording.enable(EVENT).withThreshold(Duration.ZERO).withStackTrace();
    recording.setToDisk(true);
  }

  static PinnedEvents start() {
    PinnedEvents p = new PinnedEvents();
    p.recording.start();
    return p;
  }

  /** Stops the recording and returns the pinned events it saw. */
  List<RecordedEvent> stop() throws IOException {
    recording.stop();
    Path file = Files.createTempFile("hostloom-pinned", ".jfr");
    try {
      recording.dump(file);
      return RecordingFile.readAllEvents(file).stream()
          .filter(e -> e.getEventType().getName().equals(EVENT))
          .toList();
    } finally {
      recording.close();
      Files.deleteIfExists(file);
    }
  }

  /** Each event's reason and top frames, for a failure message that names the cause. */
  static String describe(List<RecordedEvent> events) {
    return events.stream()
        .map(
            e ->
                e.getString("pinnedReason")
                    + " ("
                    + e.getDuration()
                    + ")\n    "
                    + (e.getStackTrace() == null
                        ? "no stack"
                        : e.getStackTrace().getFrames().stream()
                            .limit(12)
                            .map(PinnedEvents::frame)
                            .collect(Collectors.joining("\n    "))))
        .collect(Collectors.joining("\n"));
  }

  private static String frame(RecordedFrame f) {
    return f.getMethod().getType().getName()
        + "."
        + f.getMethod().getName()
        + ":"
        + f.getLineNumber();
  }
}
