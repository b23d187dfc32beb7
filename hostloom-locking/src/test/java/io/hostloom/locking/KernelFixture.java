package io.hostloom.locking;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.testing.FaultInjectingLockBackend;
import io.hostloom.locking.testing.ManualLockClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

/**
 * One test's world: a manual clock, the in-memory backend, a fault injector and a call recorder in
 * front of it (lock → recorder → faults → memory), a recording listener and logger.
 */
final class KernelFixture {
  final ManualLockClock clock = new ManualLockClock();
  final InMemoryLockBackend memory = new InMemoryLockBackend(clock);
  final FaultInjectingLockBackend faults = new FaultInjectingLockBackend(memory);
  final RecordingBackend backend = new RecordingBackend(faults, clock);
  final RecordingListener events = new RecordingListener();
  final RecordingLogger log = new RecordingLogger();

  static LockingOptions.Builder options() {
    return LockingOptions.builder().namespace("test").retry(LockRetryPolicy.immediate(3));
  }

  DistributedLock lock() {
    return lock(UnaryOperator.identity());
  }

  DistributedLock lock(UnaryOperator<LockingOptions.Builder> configure) {
    return lock(configure, backend);
  }

  DistributedLock lock(UnaryOperator<LockingOptions.Builder> configure, LockBackend over) {
    return DistributedLock.builder(configure.apply(options()).build(), over)
        .clock(clock)
        .listener(events)
        .logger(log)
        .build();
  }

  static LockOptions lease(Duration lease) {
    return LockOptions.builder().lease(lease).maxWait(Duration.ZERO).build();
  }

  static LockOptions.Builder opts() {
    return LockOptions.builder();
  }

  /** Waits (real time, bounded) until {@code condition} holds; for hand-offs to other threads. */
  static void await(BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met within 10 s");
      }
      Thread.onSpinWait();
    }
  }

  /** Runs {@code action} on a new thread; the future completes with its result. */
  static <T> CompletableFuture<T> onThread(ThrowingSupplier<T> action) {
    CompletableFuture<T> out = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                out.complete(action.get());
              } catch (Throwable e) {
                out.completeExceptionally(e);
              }
            },
            "kernel-test-caller");
    t.setDaemon(true);
    t.start();
    return out;
  }

  /** A supplier that may throw. */
  @FunctionalInterface
  interface ThrowingSupplier<T> {
    T get() throws Exception;
  }

  static Throwable failure(CompletableFuture<?> f) {
    try {
      f.get(10, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    throw new AssertionError("completed normally");
  }

  static <T> T value(CompletableFuture<T> f) {
    try {
      return f.get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
