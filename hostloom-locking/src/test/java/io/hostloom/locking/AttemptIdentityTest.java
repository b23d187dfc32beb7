package io.hostloom.locking;

import static io.hostloom.locking.KernelFixture.value;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.testing.CountingLockBackend.Operation;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * An acquisition keeps its attempt's state itself, one attempt out at a time, so a late answer of
 * an earlier attempt must never be taken for the attempt out. The case that can happen: a lease
 * timer whose task had already started when its attempt was answered (its cancel came too late) and
 * that runs after the next attempt was sent.
 */
class AttemptIdentityTest {
  private final KernelFixture fx = new KernelFixture();

  /** The fixture's manual clock, except that cancel never stops a task: "already started". */
  private final LockClock lateTimers =
      new LockClock() {
        @Override
        public long nanoTime() {
          return fx.clock.nanoTime();
        }

        @Override
        public Instant instant() {
          return fx.clock.instant();
        }

        @Override
        public Timer schedule(Duration delay, Runnable task) {
          var unused = fx.clock.schedule(delay, task);
          return () -> {};
        }
      };

  @Test
  void anEarlierAttemptsLateLeaseTimerDoesNotCancelTheAttemptOut() {
    String backendKey = "test:lock:k";
    assertThat(fx.memory.acquire(backendKey, "other", "", Duration.ofMinutes(1)).join().granted())
        .isTrue();
    DistributedLock lock =
        DistributedLock.builder(KernelFixture.options().build(), fx.backend)
            .clock(lateTimers)
            .listener(fx.events)
            .logger(fx.log)
            .build();
    fx.faults.holdReplies(Operation.ACQUIRE);
    CompletableFuture<LockHandle> f =
        lock.acquireAsync("k", LockOptions.builder().lease(Duration.ofSeconds(10)).build());
    fx.clock.advance(Duration.ofSeconds(9)); // attempt 1 refused (held), its reply withheld
    assertThat(fx.memory.release(backendKey, "other").join().released()).isTrue();
    fx.faults.holdRequests(Operation.ACQUIRE);
    fx.faults.deliverReplies(); // attempt 1's refusal: the immediate retry sends attempt 2
    assertThat(fx.faults.heldRequestCount()).isEqualTo(1);

    fx.clock.advance(Duration.ofSeconds(1)); // attempt 1's lease end: its timer still runs
    fx.faults.releaseRequests(); // attempt 2 applied and granted, 1 s into its 10 s lease

    LockHandle h = value(f);
    assertThat(h.isHeld()).isTrue();
    assertThat(fx.events.matching("acquire:")).containsExactly("acquire:ACQUIRED:2");
    h.close();
    lock.close();
  }
}
