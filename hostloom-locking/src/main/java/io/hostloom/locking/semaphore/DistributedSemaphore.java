package io.hostloom.locking.semaphore;

import io.hostloom.locking.LockBackendUnavailableException;
import io.hostloom.locking.LockInterruptedException;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.OnLost;
import java.util.Optional;

/**
 * A distributed counting semaphore: at most {@link #permits()} permits of one {@link #name()} are
 * held at any instant, across every process that uses the name with the same count. Built by {@link
 * DistributedSemaphores#semaphore(String, int)}; thread-safe.
 *
 * <p><b>Permits are leases.</b> A permit is a kernel lease (see {@link
 * io.hostloom.locking.LockHandle}) on one of the name's {@code permits} slot keys, or, where the
 * backend offers native permits ({@link io.hostloom.locking.spi.PermitLeases}, e.g. Redis), one
 * entry of the name's one semaphore key whose slot is its fencing token modulo {@code permits};
 * either way with the caller's {@link LockOptions}: lease, automatic extension, hold policy, {@code
 * lost()}. A permit whose holder died comes back when its lease ends on the <em>backend's</em>
 * clock, never earlier; release and extension are owner-checked on the backend, so a stale holder
 * can neither free nor extend a successor's permit. Fencing tokens order the holders of one slot
 * (see {@link Permit}). All processes of one name must use the same construction (they do with the
 * same backend type).
 *
 * <p><b>Acquiring {@code count} permits</b> is all or nothing: a round tries the slots in a random
 * rotation, one backend attempt per slot (native: one attempt per permit, each taking any free
 * slot, the first refusal ending the round), until it holds {@code count}; a round that gets fewer
 * gives back what it got (at once, whatever the minimum hold) before waiting. So a waiter never
 * holds permits, and waiters cannot block each other; but there is no queue: a request for many
 * permits can keep losing to requests for few while the semaphore is busy.
 *
 * <p><b>Waiting.</b> Between rounds the semaphore waits the retry policy's delay (jitter included)
 * on the lock's clock, and, when the backend has a {@link io.hostloom.locking.spi.ReleaseSignal}
 * and {@code wake-on-release} is on, wakes at once when any slot (native: any permit of the name)
 * is announced released; a woken round that fails uses no retry, and the step's delay keeps
 * running. The retry limit and {@code maxWait} are those of {@link
 * io.hostloom.locking.DistributedLock}: {@code maxWait} is a hard wall on the whole call, a retry
 * whose delay would reach it is not made, and {@code maxWait = 0} is one round.
 *
 * <p><b>Interruption.</b> If the calling thread is interrupted before or during a blocking call,
 * the permits got so far are given back, the interrupt flag is set again and {@link
 * LockInterruptedException} is thrown; a backend command already sent is not cancelled, a grant
 * that arrives later is released by the kernel.
 *
 * <p><b>Errors.</b> {@code count} outside {@code [1, permits()]}: {@link IllegalArgumentException};
 * a slot held under another permit count: {@link PermitCountMismatchException} (detected only when
 * an attempt meets such a slot, see the module README); a backend failure: {@link
 * LockBackendUnavailableException}, never retried; a closed factory: {@link IllegalStateException}.
 * In every failure case nothing is held for the caller.
 */
public interface DistributedSemaphore {

  /** The name, without the namespace prefix. */
  String name();

  /** The number of permits of this name, fixed per name for every caller. */
  int permits();

  /**
   * Acquires {@code count} permits, retrying per the options' policy, bounded by their {@code
   * maxWait}; blocks until granted or given up. Close the result to release.
   *
   * @throws LockNotAcquiredException when the permits stayed busy (attempts = slot attempts sent)
   * @throws LockBackendUnavailableException when the backend failed
   * @throws LockInterruptedException when interrupted while acquiring
   * @throws PermitCountMismatchException when a slot is held under another permit count
   */
  Permits acquire(int count, LockOptions options);

  /** One permit with {@link LockOptions#DEFAULTS}. */
  default Permits acquire() {
    return acquire(1, LockOptions.DEFAULTS);
  }

  /**
   * Like {@link #acquire(int, LockOptions)}, but busy permits are an empty result instead of an
   * exception.
   */
  Optional<Permits> tryAcquire(int count, LockOptions options);

  /** One permit, one round ({@link LockOptions#SKIP_IF_BUSY}): never sleeps. */
  default Optional<Permits> tryAcquire() {
    return tryAcquire(1, LockOptions.SKIP_IF_BUSY);
  }

  /**
   * Acquires {@code count} permits, runs {@code action} on the calling thread and releases them in
   * a {@code finally}, also when the action throws (what it throws propagates unchanged). With
   * {@link OnLost#CANCEL} the loss of any permit interrupts the calling thread while the action
   * runs; that interrupt is cleared when the action ends.
   *
   * @throws LockNotAcquiredException when the permits stayed busy (the action never started)
   * @throws LockBackendUnavailableException when the backend failed
   * @throws LockInterruptedException when interrupted while acquiring
   * @throws X what the action throws
   */
  <T, X extends Exception> T executeWithPermits(
      int count, LockOptions options, PermitsCallable<T, X> action) throws X;

  /** The void form of {@link #executeWithPermits}. */
  default <X extends Exception> void runWithPermits(
      int count, LockOptions options, PermitsRunnable<X> action) throws X {
    executeWithPermits(
        count,
        options,
        (PermitsCallable<Void, X>)
            p -> {
              action.run(p);
              return null;
            });
  }
}
