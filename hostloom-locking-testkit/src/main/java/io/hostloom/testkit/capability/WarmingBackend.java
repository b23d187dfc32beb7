package io.hostloom.testkit.capability;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.BackendWarmUp;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.support.DelegatingLockBackend;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * An in-memory backend whose {@link BackendWarmUp#warmUp()} answers what a framework test says,
 * counting the calls: to check that a framework integration warms its backend up at start-up, once,
 * and starts when the warm-up fails or does not finish.
 */
public final class WarmingBackend extends DelegatingLockBackend implements BackendWarmUp {
  private final LockBackend memory = new InMemoryLockBackend();
  private final AtomicInteger warmUps = new AtomicInteger();
  private final Supplier<CompletableFuture<Void>> answer;

  /** A backend whose warm-ups answer {@code answer.get()}. */
  public WarmingBackend(Supplier<CompletableFuture<Void>> answer) {
    this.answer = answer;
  }

  /** A backend whose warm-ups succeed at once. */
  public static WarmingBackend succeeding() {
    return new WarmingBackend(() -> CompletableFuture.completedFuture(null));
  }

  @Override
  protected LockBackend delegate() {
    return memory;
  }

  @Override
  public CompletableFuture<Void> warmUp() {
    warmUps.incrementAndGet();
    return answer.get();
  }

  /** How many times {@link #warmUp()} was called. */
  public int warmUps() {
    return warmUps.get();
  }
}
