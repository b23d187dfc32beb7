package io.hostloom.reactor;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockedAsyncFunction;
import io.hostloom.locking.LockedCallable;
import io.hostloom.locking.testing.ManualLockClock;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A grant the kernel had already completed when the subscriber cancelled (so the kernel's own
 * late-grant release does not apply) is released by the reactive form, not leaked until expiry.
 */
class UndeliveredGrantTest {
  private final ManualLockClock clock = new ManualLockClock();
  private final DistributedLock real = TestLocks.inMemory(clock);

  /** Completes after the cancellation and ignores it: the race "granted as cancelled". */
  private final CompletableFuture<LockHandle> acquire = uncancellable();

  private final CompletableFuture<Optional<LockHandle>> tryAcquire = uncancellable();

  @AfterEach
  void close() {
    real.close();
  }

  @Test
  void aHandleGrantedAsTheSubscriberCancelledIsReleased() {
    ReactiveLock reactive = ReactiveLock.of(new GatedLock());
    reactive.acquire("orders").subscribe().dispose();
    LockHandle h = real.tryAcquire("orders").orElseThrow();

    acquire.complete(h);

    assertThat(h.isHeld()).isFalse();
    assertThat(real.tryAcquire("orders")).hasValueSatisfying(LockHandle::close);
  }

  @Test
  void aTryAcquireGrantedAsTheSubscriberCancelledIsReleased() {
    ReactiveLock reactive = ReactiveLock.of(new GatedLock());
    reactive.tryAcquire("orders").subscribe().dispose();
    LockHandle h = real.tryAcquire("orders").orElseThrow();

    tryAcquire.complete(Optional.of(h));

    assertThat(h.isHeld()).isFalse();
  }

  private static <T> CompletableFuture<T> uncancellable() {
    return new CompletableFuture<>() {
      @Override
      public boolean cancel(boolean mayInterruptIfRunning) {
        return false;
      }
    };
  }

  /** The real lock, except that the async acquisitions answer with the gated futures. */
  private final class GatedLock implements DistributedLock {
    @Override
    public boolean isCoordinated() {
      return true;
    }

    @Override
    public <T, X extends Exception> T executeWithLock(
        String key, LockOptions options, LockedCallable<T, X> action) throws X {
      return real.executeWithLock(key, options, action);
    }

    @Override
    public LockHandle acquire(String key, LockOptions options) {
      return real.acquire(key, options);
    }

    @Override
    public Optional<LockHandle> tryAcquire(String key, LockOptions options) {
      return real.tryAcquire(key, options);
    }

    @Override
    public CompletableFuture<LockHandle> acquireAsync(String key, LockOptions options) {
      return acquire;
    }

    @Override
    public CompletableFuture<Optional<LockHandle>> tryAcquireAsync(
        String key, LockOptions options) {
      return tryAcquire;
    }

    @Override
    public <T> CompletableFuture<T> executeWithLockAsync(
        String key, LockOptions options, LockedAsyncFunction<T> action) {
      return real.executeWithLockAsync(key, options, action);
    }

    @Override
    public void close() {}
  }
}
