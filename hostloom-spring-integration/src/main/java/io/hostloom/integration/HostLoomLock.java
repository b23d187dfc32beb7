package io.hostloom.integration;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockInterruptedException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LossReason;
import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One key of a {@link HostLoomLockRegistry}: a {@link Lock} that is a local {@link ReentrantLock}
 * (one thread of this registry at a time, reentrant) plus a HostLoom lease on the key (one
 * registry, that is one process, at a time).
 *
 * <p><b>Every lock call of the owning thread checks the lease</b>, as Spring Integration's Redis
 * and JDBC registries re-obtain the key in the store on every call: the first call acquires it; a
 * reentrant call renews it when it is still held and acquires it again when it was lost (a new
 * grant with a new {@link #fencingToken()}). A reentrant call that cannot hold the lease returns
 * {@code false} without adding a hold. This is how {@code LockRegistryLeaderInitiator}'s heartbeat
 * (a reentrant {@code tryLock} per beat) notices a lost lease.
 *
 * <p><b>Interruption.</b> {@link #lock()} keeps waiting when interrupted and sets the flag again
 * when it returns; {@link #lockInterruptibly()} and {@link #tryLock(long, TimeUnit)} throw {@link
 * InterruptedException}. A backend failure is thrown as the kernel's unchecked {@code
 * LockProviderUnavailableException} and leaves nothing held by that call.
 *
 * <p><b>Release.</b> {@link #unlock()} by a thread that does not hold the lock throws {@link
 * IllegalStateException}. The last unlock releases the lease; when the lease had been lost before,
 * it throws {@link ConcurrentModificationException} after releasing the local lock (as Spring
 * Integration's Redis registry does): work done under the lock may have overlapped another holder.
 */
public final class HostLoomLock implements Lock {
  private final DistributedLock lock;
  private final String key;
  private final LockOptions waitOptions;
  private final LockOptions skipIfBusy;
  private final Duration lease;
  private final ReentrantLock local = new ReentrantLock();
  private volatile LockHandle handle; // written only by the thread holding local

  HostLoomLock(DistributedLock lock, String key, LockOptions waitOptions, Duration lease) {
    this.lock = lock;
    this.key = key;
    this.waitOptions = waitOptions;
    this.skipIfBusy = waitOptions.toBuilder().maxWait(Duration.ZERO).build();
    this.lease = lease;
  }

  /** The lock key (without the lock's namespace). */
  public String key() {
    return key;
  }

  /**
   * The fencing token of the current grant, or {@code 0} when not held; pass it with every write
   * the lock protects (see the kernel README).
   */
  public long fencingToken() {
    LockHandle h = handle;
    return h == null ? 0 : h.fencingToken();
  }

  /**
   * Completes when the current grant's lease is lost; already-complete with {@code null} when not
   * held. Callbacks run on a timer or backend thread and must not block.
   */
  public CompletableFuture<LossReason> lost() {
    LockHandle h = handle;
    return h == null ? CompletableFuture.completedFuture(null) : h.lost();
  }

  /** {@code true} while a thread of this registry holds the lock and its lease is held. */
  public boolean isHeld() {
    LockHandle h = handle;
    return local.isLocked() && h != null && h.isHeld();
  }

  @Override
  public void lock() {
    local.lock();
    boolean interrupted = false;
    try {
      while (true) {
        try {
          if (hold(Mode.WAIT, 0)) {
            return;
          }
        } catch (LockInterruptedException e) {
          interrupted = true;
          Thread.interrupted(); // keep waiting, as Lock.lock() does
        }
      }
    } catch (RuntimeException e) {
      local.unlock();
      throw e;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public void lockInterruptibly() throws InterruptedException {
    local.lockInterruptibly();
    try {
      while (!hold(Mode.WAIT, 0)) {
        if (Thread.interrupted()) {
          throw new InterruptedException("interrupted while locking '" + key + "'");
        }
      }
    } catch (LockInterruptedException e) {
      local.unlock();
      Thread.interrupted();
      throw interrupted(e);
    } catch (RuntimeException | InterruptedException e) {
      local.unlock();
      throw e;
    }
  }

  @Override
  public boolean tryLock() {
    if (!local.tryLock()) {
      return false;
    }
    return holdOrUndo(Mode.ONCE, 0);
  }

  @Override
  public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(Math.max(0, time));
    if (!local.tryLock(time, unit)) {
      return false;
    }
    try {
      return holdOrUndo(Mode.DEADLINE, deadline);
    } catch (LockInterruptedException e) {
      Thread.interrupted();
      throw interrupted(e);
    }
  }

  private boolean holdOrUndo(Mode mode, long deadline) {
    boolean ok = false;
    try {
      ok = hold(mode, deadline);
      return ok;
    } finally {
      if (!ok) {
        local.unlock();
      }
    }
  }

  private enum Mode {
    ONCE,
    DEADLINE,
    WAIT
  }

  /** Makes sure this registry holds the lease; the caller holds {@code local}. */
  private boolean hold(Mode mode, long deadline) {
    LockHandle h = handle;
    if (h != null && h.isHeld()) {
      // reentrant: renew; a failed (not refused) renewal keeps the lease until its end
      if (h.extend(lease) || h.isHeld()) {
        return true;
      }
    }
    if (h != null) {
      handle = null;
      h.closeAsync(); // lost: owner-checked release, harmless
    }
    Optional<LockHandle> granted;
    switch (mode) {
      case ONCE -> granted = lock.tryAcquire(key, skipIfBusy);
      case DEADLINE -> {
        granted = Optional.empty();
        while (granted.isEmpty()) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            break;
          }
          granted =
              lock.tryAcquire(key, waitOptions.toBuilder().maxWait(Duration.ofNanos(left)).build());
        }
      }
      default -> granted = lock.tryAcquire(key, waitOptions);
    }
    granted.ifPresent(g -> handle = g);
    return granted.isPresent();
  }

  /**
   * Renews the lease of a held lock (the caller need not be the owning thread: Spring Integration
   * renews from a scheduler).
   *
   * @throws IllegalStateException when the lock is not held by this registry, or the backend
   *     refused (the lease is lost)
   */
  void renew(Duration lease) {
    LockHandle h = handle;
    if (h == null || !local.isLocked()) {
      throw new IllegalStateException("lock '" + key + "' is not held by this registry");
    }
    if (!h.extend(lease) && !h.isHeld()) {
      throw new IllegalStateException("lock '" + key + "' could not be renewed: its lease is lost");
    }
  }

  @Override
  public void unlock() {
    if (!local.isHeldByCurrentThread()) {
      throw new IllegalStateException(
          "you do not own lock '" + key + "': it is not held by the current thread");
    }
    if (local.getHoldCount() > 1) {
      local.unlock();
      return;
    }
    LockHandle h = handle;
    handle = null;
    boolean wasHeld = h != null && h.isHeld();
    try {
      if (h != null) {
        h.close();
      }
    } finally {
      local.unlock();
    }
    if (h != null && !wasHeld) {
      throw new ConcurrentModificationException(
          "the lease of lock '"
              + key
              + "' was lost before unlock: work under the lock may have overlapped another holder");
    }
  }

  /** Not supported: a condition cannot span processes. */
  @Override
  public Condition newCondition() {
    throw new UnsupportedOperationException("conditions are not supported by distributed locks");
  }

  private InterruptedException interrupted(LockInterruptedException e) {
    InterruptedException ie = new InterruptedException("interrupted while locking '" + key + "'");
    ie.initCause(e);
    return ie;
  }

  @Override
  public String toString() {
    return "HostLoomLock[key=" + key + ", held=" + isHeld() + "]";
  }
}
