package io.hostloom.testkit.migration;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * One node's side of a scheduled job that several nodes run at the same instants, each occurrence
 * guarded by the lock under test, as {@code @Scheduled} + a lock does.
 *
 * <p>Occurrence {@code k} fires at {@code start + k * period} plus a random jitter of up to a tenth
 * of the period (so either node may win). A node more than a quarter period late skips it (a
 * misfire, not a lock question). The job appends {@code (k, node)} to the {@link OccurrenceLedger}
 * and then keeps running until three quarters of the period have passed since the occurrence's
 * instant, longer than any node may be late: while it runs, the other node's attempt for the same
 * occurrence meets a held lock, so a second run of an occurrence means the lock let two holders in.
 * A node granted only when those three quarters have passed (its JVM stalled between the lateness
 * check and the grant, on a loaded machine) does not run it: the other node's run may have ended
 * and released, so a run then would be a second run without two holders.
 */
public final class OccurrenceSchedule {
  /** Runs {@code job} when the lock for {@code occurrence} is granted, then releases it. */
  @FunctionalInterface
  public interface Guard {
    /** Runs {@code job} under the lock if granted; returns whether it ran. */
    boolean runExclusively(int occurrence, Runnable job) throws Exception;
  }

  private OccurrenceSchedule() {}

  /**
   * Runs the {@code occurrences} from {@code startEpochMillis} (this host's clock) every {@code
   * period}, each through {@code guard}; returns how many this node ran.
   */
  public static int run(
      long startEpochMillis,
      Duration period,
      int occurrences,
      String node,
      Path ledger,
      Guard guard)
      throws Exception {
    long periodMillis = period.toMillis();
    int ran = 0;
    for (int k = 0; k < occurrences; k++) {
      long at = startEpochMillis + k * periodMillis;
      long fire = at + ThreadLocalRandom.current().nextLong(periodMillis / 10 + 1);
      sleepUntil(fire);
      if (System.currentTimeMillis() > at + periodMillis / 4) {
        continue; // misfire: too late to compete fairly for this occurrence
      }
      int occurrence = k;
      boolean done =
          guard.runExclusively(
              k,
              () -> {
                // granted after the other node's run could have ended: a stall, not a second
                // holder (a grant while the other holds reads the clock before those 3/4)
                if (System.currentTimeMillis() >= at + periodMillis * 3 / 4) {
                  return;
                }
                OccurrenceLedger.append(ledger, occurrence, node);
                sleepUntil(at + periodMillis * 3 / 4);
              });
      if (done) {
        ran++;
      }
    }
    return ran;
  }

  private static void sleepUntil(long epochMillis) {
    long left;
    while ((left = epochMillis - System.currentTimeMillis()) > 0) {
      LockSupport.parkNanos(Duration.ofMillis(left).toNanos());
    }
  }
}
