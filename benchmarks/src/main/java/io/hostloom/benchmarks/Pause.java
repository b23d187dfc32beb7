package io.hostloom.benchmarks;

/** The harness's waits between phases (not measured). */
public final class Pause {
  private Pause() {}

  /** Sleeps, keeping the interrupt flag. */
  public static void millis(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
