package io.hostloom.scheduling;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.testing.FaultInjectingLockBackend;
import io.hostloom.locking.testing.ManualLockClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * One test's world: a manual clock, the in-memory backend on it behind a fault injector, and two
 * locks over that backend standing for two instances of an application.
 */
final class GuardFixture implements AutoCloseable {
  final ManualLockClock clock;
  final InMemoryLockBackend memory;
  final FaultInjectingLockBackend faults;
  final DistributedLock instanceA;
  final DistributedLock instanceB;
  final List<RunResult> finished = new CopyOnWriteArrayList<>();
  final List<ScheduleClaim> started = new CopyOnWriteArrayList<>();
  private final ExecutorService background = Executors.newCachedThreadPool();

  GuardFixture() {
    this(ManualLockClock.DEFAULT_EPOCH);
  }

  GuardFixture(Instant epoch) {
    clock = new ManualLockClock(epoch);
    memory = new InMemoryLockBackend(clock);
    faults = new FaultInjectingLockBackend(memory);
    instanceA = lock(faults);
    instanceB = lock(faults);
  }

  private DistributedLock lock(FaultInjectingLockBackend over) {
    return DistributedLock.builder(LockingOptions.of("app"), over).clock(clock).build();
  }

  ScheduleGuard guard(DistributedLock lock, ScheduleOptions options) {
    return ScheduleGuard.builder(lock, options)
        .clock(clock)
        .listener(
            new ScheduleListener() {
              @Override
              public void runStarted(ScheduleClaim claim) {
                started.add(claim);
              }

              @Override
              public void runFinished(RunResult result) {
                finished.add(result);
              }
            })
        .build();
  }

  /** Runs {@code guard} on a background thread (the test thread moves the clock meanwhile). */
  CompletableFuture<RunResult> runInBackground(ScheduleGuard guard, ScheduledJob job) {
    return CompletableFuture.supplyAsync(() -> guard.run(job), background);
  }

  /** Whether the backend holds the schedule's claim now (on the manual clock). */
  boolean claimHeld(String schedule) {
    return memory.read("app:lock:" + ScheduleOptions.KEY_PREFIX + schedule).join().isPresent();
  }

  static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }

  @Override
  public void close() throws InterruptedException {
    background.shutdownNow();
    background.awaitTermination(10, TimeUnit.SECONDS);
    instanceA.close();
    instanceB.close();
  }
}
