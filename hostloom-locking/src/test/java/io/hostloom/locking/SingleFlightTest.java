package io.hostloom.locking;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.testing.ForwardingLockBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One acquisition has at most one backend acquire out at a time and sends none after its grant:
 * otherwise the backend answers the second as a same-owner re-acquire (the same fencing token for
 * two holds), and the kernel's release of that orphan frees the real holder's lease. Real threads,
 * replies on a pool, a release signal and 1 ms retry steps, so a reply, a step's timer and a wake
 * race each other; the assertion is on the call history, never on time.
 */
class SingleFlightTest {
  private static final int THREADS = 6;
  private static final int HOLDS_PER_THREAD = 400;

  /** Fails the history when one owner's acquire calls overlap or follow that owner's grant. */
  static final class SingleFlightChecker extends ForwardingLockBackend implements ReleaseSignal {
    private final ReleaseSignal signal;
    private final ExecutorService replies;
    private final Map<String, String> state = new ConcurrentHashMap<>(); // owner -> OUT | GRANTED
    final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();

    SingleFlightChecker(InMemoryLockBackend delegate, ExecutorService replies) {
      super(delegate);
      this.signal = delegate;
      this.replies = replies;
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquire(
        String key, String owner, String data, Duration lease) {
      String before = state.put(owner, "OUT");
      if (before != null) {
        violations.add("acquire for owner " + owner + " while its earlier acquire was " + before);
      }
      return delegate
          .acquire(key, owner, data, lease)
          .thenApplyAsync(
              o -> {
                if (o.granted()) {
                  state.put(owner, "GRANTED");
                } else {
                  state.remove(owner);
                }
                return o;
              },
              replies);
    }

    @Override
    public CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait) {
      return signal.awaitRelease(key, maxWait);
    }
  }

  @Test
  void anAcquisitionNeverHasTwoAcquiresOut() throws Exception {
    ExecutorService replies = Executors.newFixedThreadPool(2);
    ExecutorService callers = Executors.newFixedThreadPool(THREADS);
    InMemoryLockBackend memory = new InMemoryLockBackend();
    SingleFlightChecker checker = new SingleFlightChecker(memory, replies);
    LockBackend backend = checker;
    List<DistributedLock> locks = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      locks.add(
          DistributedLock.create(
              LockingOptions.builder()
                  .namespace("single-flight")
                  .retry(LockRetryPolicy.interval(100_000, Duration.ofMillis(1)))
                  .build(),
              backend));
    }
    try {
      List<CompletableFuture<Void>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        DistributedLock lock = locks.get(t % locks.size());
        done.add(
            CompletableFuture.runAsync(
                () -> {
                  for (int i = 0; i < HOLDS_PER_THREAD; i++) {
                    try (LockHandle h = lock.acquire("k")) {
                      Thread.onSpinWait();
                    }
                  }
                },
                callers));
      }
      CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
    } finally {
      locks.forEach(DistributedLock::close);
      callers.shutdownNow();
      replies.shutdownNow();
    }
    assertThat(checker.violations).isEmpty();
  }
}
