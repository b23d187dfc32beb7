package io.hostloom.virtualthreads;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;

/**
 * The pinning recorder's self-test: it must see a virtual thread that blocks where it cannot
 * unmount. On Java 24+ a {@code synchronized} block no longer pins (JEP 491); blocking inside a
 * class initializer still does, so that is the bad case fed to it, and a monitor the good one.
 */
class PinnedEventsTest {
  /** Blocks while being initialized: a virtual thread that first touches it is pinned. */
  static final class SlowToInitialize {
    static {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    static void touch() {}
  }

  @Test
  void aVirtualThreadBlockingInAClassInitializerIsRecordedAsPinned() throws Exception {
    PinnedEvents recorder = PinnedEvents.start();
    Thread.ofVirtual().start(SlowToInitialize::touch).join();

    List<RecordedEvent> pinned = recorder.stop();

    assertThat(pinned).isNotEmpty();
    assertThat(PinnedEvents.describe(pinned)).contains("SlowToInitialize");
  }

  @Test
  void aVirtualThreadSleepingInsideAMonitorIsNotPinnedOnThisJdk() throws Exception {
    Object monitor = new Object();
    PinnedEvents recorder = PinnedEvents.start();
    Thread.ofVirtual()
        .start(
            () -> {
              synchronized (monitor) {
                try {
                  Thread.sleep(20);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }
            })
        .join();

    assertThat(recorder.stop()).isEmpty();
  }
}
