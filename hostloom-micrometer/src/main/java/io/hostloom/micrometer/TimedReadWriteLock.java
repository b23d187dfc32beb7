package io.hostloom.micrometer;

import io.hostloom.locking.LockOptions;
import io.hostloom.locking.rwlock.DistributedReadWriteLock;
import io.hostloom.locking.rwlock.ReadWriteHandle;
import io.hostloom.locking.rwlock.ReadWriteHandle.Mode;
import io.micrometer.core.instrument.Timer;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * {@link ReadWriteLockMetrics#timed}: the lock, each acquisition timed as a whole per mode; the
 * {@code executeWith...} forms go through {@code acquireRead} / {@code acquireWrite}, so they are
 * timed up to the action's start.
 */
final class TimedReadWriteLock implements DistributedReadWriteLock {
  private final DistributedReadWriteLock lock;
  private final AcquisitionTimer read;
  private final AcquisitionTimer write;

  TimedReadWriteLock(DistributedReadWriteLock lock, AcquisitionTimer read, AcquisitionTimer write) {
    this.lock = lock;
    this.read = read;
    this.write = write;
  }

  private static ReadWriteHandle blocking(AcquisitionTimer t, Supplier<ReadWriteHandle> call) {
    Timer.Sample sample = t.start();
    try {
      ReadWriteHandle h = call.get();
      t.stop(sample, AcquisitionTimer.ACQUIRED);
      return h;
    } catch (RuntimeException e) {
      t.failed(sample, e);
      throw e;
    }
  }

  private static Optional<ReadWriteHandle> trying(
      AcquisitionTimer t, Supplier<Optional<ReadWriteHandle>> call) {
    Timer.Sample sample = t.start();
    try {
      Optional<ReadWriteHandle> h = call.get();
      t.stop(sample, h.isPresent() ? AcquisitionTimer.ACQUIRED : AcquisitionTimer.NOT_ACQUIRED);
      return h;
    } catch (RuntimeException e) {
      t.failed(sample, e);
      throw e;
    }
  }

  // the lock's future itself is returned: a caller's cancel still reaches the acquisition
  private static CompletableFuture<Optional<ReadWriteHandle>> async(
      AcquisitionTimer t, Supplier<CompletableFuture<Optional<ReadWriteHandle>>> call) {
    Timer.Sample sample = t.start();
    CompletableFuture<Optional<ReadWriteHandle>> f = call.get();
    var unused =
        f.whenComplete(
            (h, e) -> {
              if (e != null) {
                t.failed(sample, e);
              } else {
                t.stop(
                    sample,
                    h.isPresent() ? AcquisitionTimer.ACQUIRED : AcquisitionTimer.NOT_ACQUIRED);
              }
            });
    return f;
  }

  @Override
  public ReadWriteHandle acquireRead(String name, LockOptions options) {
    return blocking(read, () -> lock.acquireRead(name, options));
  }

  @Override
  public ReadWriteHandle acquireWrite(String name, LockOptions options) {
    return blocking(write, () -> lock.acquireWrite(name, options));
  }

  @Override
  public Optional<ReadWriteHandle> tryAcquireRead(String name, LockOptions options) {
    return trying(read, () -> lock.tryAcquireRead(name, options));
  }

  @Override
  public Optional<ReadWriteHandle> tryAcquireWrite(String name, LockOptions options) {
    return trying(write, () -> lock.tryAcquireWrite(name, options));
  }

  @Override
  public CompletableFuture<Optional<ReadWriteHandle>> tryAcquireReadAsync(
      String name, LockOptions options) {
    return async(read, () -> lock.tryAcquireReadAsync(name, options));
  }

  @Override
  public CompletableFuture<Optional<ReadWriteHandle>> tryAcquireWriteAsync(
      String name, LockOptions options) {
    return async(write, () -> lock.tryAcquireWriteAsync(name, options));
  }

  @Override
  public int readerSlots() {
    return lock.readerSlots();
  }

  @Override
  public int held(Mode mode) {
    return lock.held(mode);
  }

  @Override
  public void close() {
    lock.close();
  }

  @Override
  public String toString() {
    return "Timed" + lock;
  }
}
