package io.hostloom.micrometer;

import io.hostloom.locking.LockOptions;
import io.hostloom.locking.semaphore.DistributedSemaphore;
import io.hostloom.locking.semaphore.Permits;
import io.hostloom.locking.semaphore.PermitsCallable;
import io.micrometer.core.instrument.Timer;
import java.util.Objects;
import java.util.Optional;

/** {@link SemaphoreMetrics#timed}: the semaphore, each acquisition timed as a whole. */
final class TimedSemaphore implements DistributedSemaphore {
  private final DistributedSemaphore semaphore;
  private final AcquisitionTimer timer;

  TimedSemaphore(DistributedSemaphore semaphore, AcquisitionTimer timer) {
    this.semaphore = semaphore;
    this.timer = timer;
  }

  @Override
  public String name() {
    return semaphore.name();
  }

  @Override
  public int permits() {
    return semaphore.permits();
  }

  @Override
  public Permits acquire(int count, LockOptions options) {
    Timer.Sample sample = timer.start();
    try {
      Permits p = semaphore.acquire(count, options);
      timer.stop(sample, AcquisitionTimer.ACQUIRED);
      return p;
    } catch (RuntimeException e) {
      timer.failed(sample, e);
      throw e;
    }
  }

  @Override
  public Optional<Permits> tryAcquire(int count, LockOptions options) {
    Timer.Sample sample = timer.start();
    try {
      Optional<Permits> p = semaphore.tryAcquire(count, options);
      timer.stop(sample, p.isPresent() ? AcquisitionTimer.ACQUIRED : AcquisitionTimer.NOT_ACQUIRED);
      return p;
    } catch (RuntimeException e) {
      timer.failed(sample, e);
      throw e;
    }
  }

  /** The acquisition ends where the action starts; what the action throws is not an outcome. */
  @Override
  public <T, X extends Exception> T executeWithPermits(
      int count, LockOptions options, PermitsCallable<T, X> action) throws X {
    Objects.requireNonNull(action, "action");
    Timer.Sample sample = timer.start();
    boolean[] started = {false};
    try {
      return semaphore.executeWithPermits(
          count,
          options,
          p -> {
            started[0] = true;
            timer.stop(sample, AcquisitionTimer.ACQUIRED);
            return action.call(p);
          });
    } catch (RuntimeException e) {
      if (!started[0]) {
        timer.failed(sample, e);
      }
      throw e;
    }
  }

  @Override
  public String toString() {
    return "Timed" + semaphore;
  }
}
