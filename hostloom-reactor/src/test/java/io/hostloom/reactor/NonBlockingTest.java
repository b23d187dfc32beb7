package io.hostloom.reactor;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.testing.ManualLockClock;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

/**
 * BlockHound watches Reactor's non-blocking threads: the reactive forms, subscribed on a {@code
 * newParallel} scheduler, make no blocking call there (the kernel's blocking API would park).
 */
class NonBlockingTest {
  private static final Duration VERIFY = Duration.ofSeconds(10);
  private static Scheduler parallel;

  private final ManualLockClock clock = new ManualLockClock();
  private final DistributedLock lock = TestLocks.inMemory(clock);
  private final ReactiveLock reactive = ReactiveLock.of(lock);

  @BeforeAll
  static void installBlockHound() {
    BlockHound.install();
    parallel = Schedulers.newParallel("hostloom-nonblocking", 2);
  }

  @AfterAll
  static void disposeScheduler() {
    parallel.dispose();
  }

  @AfterEach
  void closeLock() {
    lock.close();
  }

  @Test
  void blockHoundCatchesTheKernelsBlockingApiOnAParallelThread() {
    LockHandle held = lock.tryAcquire("orders").orElseThrow();
    LockOptions wait = LockOptions.builder().maxWait(Duration.ofSeconds(5)).build();

    // the detector works: a blocking acquire that has to wait is refused on this thread
    StepVerifier.create(Mono.fromCallable(() -> lock.acquire("orders", wait)).subscribeOn(parallel))
        .expectError(BlockingOperationError.class)
        .verify(VERIFY);
    held.close();
  }

  @Test
  void theReactiveFormsMakeNoBlockingCallOnAParallelThread() {
    LockHandle held = lock.tryAcquire("busy").orElseThrow();
    Mono<String> pipeline =
        reactive
            .tryAcquire("busy")
            .map(h -> "unexpected")
            .switchIfEmpty(
                reactive.withLock(
                    "orders",
                    LockOptions.builder().lease(Duration.ofSeconds(30)).build(),
                    h ->
                        ReactiveLock.extend(h, Duration.ofSeconds(20))
                            .map(extended -> extended + " " + Schedulers.isInNonBlockingThread())))
            .subscribeOn(parallel);

    StepVerifier.create(pipeline).expectNext("true true").expectComplete().verify(VERIFY);
    held.close();
  }
}
