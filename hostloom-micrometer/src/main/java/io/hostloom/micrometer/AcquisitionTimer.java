package io.hostloom.micrometer;

import io.hostloom.locking.LockBackendUnavailableException;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.semaphore.PermitCountMismatchException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

/**
 * The timer of whole acquisitions (every round and every wait between rounds) of one primitive, one
 * per outcome: {@code acquired}, {@code not_acquired}, {@code unavailable} and, for the semaphore,
 * {@code count_mismatch}. An acquisition that ends otherwise (interrupted, the factory closed, a
 * bad argument) records nothing, as the lock's timer does. Thread-safe.
 */
final class AcquisitionTimer {
  static final String ACQUIRED = "acquired";
  static final String NOT_ACQUIRED = "not_acquired";
  static final String UNAVAILABLE = "unavailable";
  static final String COUNT_MISMATCH = "count_mismatch";

  private final MeterRegistry registry;
  private final String name;
  private final String description;
  private final Tags tags;

  AcquisitionTimer(MeterRegistry registry, String name, String description, Tags tags) {
    this.registry = registry;
    this.name = name;
    this.description = description;
    this.tags = tags;
  }

  /** A sample started now, on the registry's clock. */
  Timer.Sample start() {
    return Timer.start(registry);
  }

  void stop(Timer.Sample sample, String outcome) {
    sample.stop(
        Timer.builder(name)
            .description(description)
            .tags(tags)
            .tag(LockMetricsListener.OUTCOME_TAG, outcome)
            .register(registry));
  }

  /** Stops {@code sample} with the outcome {@code failure} stands for, if it stands for one. */
  void failed(Timer.Sample sample, Throwable failure) {
    String outcome = outcomeOf(failure);
    if (outcome != null) {
      stop(sample, outcome);
    }
  }

  private static String outcomeOf(Throwable failure) {
    Throwable t = failure;
    while (t instanceof java.util.concurrent.CompletionException
        || t instanceof java.util.concurrent.ExecutionException) {
      if (t.getCause() == null) {
        break;
      }
      t = t.getCause();
    }
    if (t instanceof LockNotAcquiredException) {
      return NOT_ACQUIRED;
    }
    if (t instanceof LockBackendUnavailableException) {
      return UNAVAILABLE;
    }
    if (t instanceof PermitCountMismatchException) {
      return COUNT_MISMATCH;
    }
    return null;
  }

  @Override
  public String toString() {
    return name + tags;
  }
}
