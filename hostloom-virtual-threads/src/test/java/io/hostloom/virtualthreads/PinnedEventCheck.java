package io.hostloom.virtualthreads;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;

/** A {@link PinnedEvents} recording that a test ends with "no virtual thread was pinned". */
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
    List<RecordedEvent> events = recording.stop();
    System.out.println("[pinned virtual threads " + during + "] " + events.size());
    assertThat(events).as("pinned %s:%n%s", during, PinnedEvents.describe(events)).isEmpty();
  }
}
