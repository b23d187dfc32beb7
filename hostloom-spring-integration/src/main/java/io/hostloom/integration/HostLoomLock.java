package io.hostloom.integration;

import io.hostloom.locking.LockBackendUnavailableException;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockInterruptedException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LossReason;
import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.springframework.dao.CannotAcquireLockException;

/**
 * One key of a {@link HostLoomLockRegistry}: a {@link Lock} that is a local {@link ReentrantLock}
 * (one thread of this registry at a time, reentrant) plus a HostLoom lease on the key (one
 * registry, that is one process, at a time). Exceptions and messages are those of Spring
 * Integration's {@code RedisLockRegistry}.
 *
 * <p><b>Every lock call of the owning thread checks the lease</b>, as Spring Integration's Redis
 * and JDBC registries re-obtain the key in the store on every call: the first call acquires it; a
 * reentrant call renews it when it is still held and acquires it again when it was lost (a new
 * grant with a new {@link #fencingToken()}). A reentrant call that cannot hold the lease returns
 * {@code false} without adding a hold, and keeps the lost grant so that the outer {@link #unlock()}
 * still reports the overlap.
 *
 * <p><b>Waiting.</b> {@code tryLock()} and {@code tryLock(0, unit)} make exactly one attempt and
 * wait for its answer. {@code tryLock(time, unit)} makes one attempt, then another every {@code
 * idleBetweenTries} (the registry's, default 100 ms) while time is left; every attempt's answer is
 * waited for, so a short time never leaves a grant nobody takes (the last answer may come after the
 * time). {@link #lock()} waits until granted, keeps waiting when interrupted and sets the flag
 * again; {@link #lockInterruptibly()} and {@code tryLock(time, unit)} throw {@link
 * InterruptedException}.
 *
 * <p><b>Failures.</b> A backend failure throws Spring's {@link CannotAcquireLockException} ("Failed
 * to lock mutex at ...", the kernel's {@code LockBackendUnavailableException} as cause) and leaves
 * nothing held by that call. A grant that arrives after its whole lease was spent (a lease shorter
 * than the round trip) is no grant: {@code tryLock} answers {@code false} (a timed one tries again
 * while time is left), {@code lock()} tries again and throws {@link CannotAcquireLockException}
 * after three such grants in a row. A lock evicted from the registry's cache throws {@link
 * CannotAcquireLockException} with an {@link IllegalStateException} cause when locked: obtain a
 * fresh one.
 *
 * <p><b>Release.</b> {@link #unlock()} by a thread that does not hold the lock throws {@link
 * IllegalStateException} ("You do not own lock at ..."). The last unlock releases the lease and
 * waits for the backend's answer, also on an interrupted thread (the flag stays set); when the
 * lease had been lost before, it throws {@link ConcurrentModificationException} after releasing the
 * local lock: work done under the lock may have overlapped another holder.
 */
public class HostLoomLock implements Lock {
  /** Grants in a row that arrive after their lease before {@code lock()} gives up. */
  static final int LATE_GRANTS_BEFORE_FAILING = 3;

  private final HostLoomLockRegistry registry;
  private final String key;
  private final ReentrantLock local = new ReentrantLock();
  // written only by the thread holding local; read by the renewal task and status getters
  private volatile LockHandle handle;
  private volatile Duration grantLease;
  private volatile ScheduledFuture<?> renewal;
  private volatile long lastUsedMillis = System.currentTimeMillis();

  HostLoomLock(HostLoomLockRegistry registry, String key) {
    this.registry = registry;
    this.key = key;
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

  /** {@code true} while a thread of this process holds or is acquiring the lock. */
  boolean isAcquiredInThisProcess() {
    return local.isLocked();
  }

  long lastUsedMillis() {
    return lastUsedMillis;
  }

  @Override
  public void lock() {
    lock(registry.lease());
  }

  /**
   * {@link #lock()} with a lease of {@code ttl} for this grant and its renewals (Spring Integration
   * 7's {@code DistributedLock.lock(Duration)}).
   */
  public void lock(Duration ttl) {
    Duration lease = positive(ttl);
    local.lock();
    boolean interrupted = false;
    try {
      while (true) {
        try {
          if (hold(lease, -1)) {
            return;
          }
        } catch (InterruptedException | LockInterruptedException e) {
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
      while (!hold(registry.lease(), -1)) {
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
    try {
      return holdOrUndo(registry.lease(), 0);
    } catch (InterruptedException | LockInterruptedException e) {
      // interrupted while a reentrant renewal waited: no answer, as the Redis registry's tryLock()
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Override
  public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
    return tryLock(Duration.ofNanos(unit.toNanos(Math.max(0, time))), registry.lease());
  }

  /**
   * {@link #tryLock(long, TimeUnit)} with a lease of {@code ttl} for this grant and its renewals
   * (Spring Integration 7's {@code DistributedLock.tryLock(Duration, Duration)}).
   */
  public boolean tryLock(Duration waitTime, Duration ttl) throws InterruptedException {
    Duration lease = positive(ttl);
    long waitNanos = Math.max(0, waitTime.toNanos());
    long deadline = System.nanoTime() + waitNanos;
    if (!local.tryLock(waitNanos, TimeUnit.NANOSECONDS)) {
      return false;
    }
    try {
      return holdOrUndo(lease, deadline);
    } catch (LockInterruptedException e) {
      Thread.interrupted();
      throw interrupted(e);
    }
  }

  private boolean holdOrUndo(Duration lease, long deadline) throws InterruptedException {
    boolean ok = false;
    try {
      ok = hold(lease, deadline);
      return ok;
    } finally {
      if (!ok) {
        local.unlock();
      }
    }
  }

  /**
   * Makes sure this registry holds the lease; the caller holds {@code local}. {@code deadline}:
   * {@code -1} waits with the kernel's retry policy, {@code 0} makes one attempt, otherwise one
   * attempt and then one per {@code idleBetweenTries} until that {@link System#nanoTime()}.
   */
  private boolean hold(Duration lease, long deadline) throws InterruptedException {
    if (!registry.isCurrent(this)) {
      throw new CannotAcquireLockException(
          "Failed to lock mutex at " + key,
          new IllegalStateException(
              "The lock '"
                  + key
                  + "' was evicted from the exhausted cache. Obtain a fresh one from "
                  + registry));
    }
    LockHandle h = handle;
    if (h != null && h.isHeld() && (h.extend(lease) || h.isHeld())) {
      // reentrant: renewed; a failed (not refused) renewal keeps the lease until its end
      grantLease = lease;
      return true;
    }
    Optional<LockHandle> granted = acquire(lease, deadline);
    if (granted.isEmpty()) {
      return false; // a lost grant stays, for unlock() to report
    }
    if (h != null) {
      stopRenewal();
      h.closeAsync(); // lost: owner-checked release, harmless
    }
    handle = granted.get();
    grantLease = lease;
    lastUsedMillis = System.currentTimeMillis();
    renewal = registry.scheduleRenewal(this, lease);
    return true;
  }

  private Optional<LockHandle> acquire(Duration lease, long deadline) throws InterruptedException {
    LockOptions options = registry.options(lease, deadline < 0);
    long idle = registry.idleBetweenTries().toNanos();
    int lateGrants = 0;
    while (true) {
      long sent = System.nanoTime();
      Optional<LockHandle> granted;
      try {
        granted = registry.distributedLock().tryAcquire(key, options);
      } catch (LockBackendUnavailableException e) {
        if (System.nanoTime() - sent < lease.toNanos()) {
          throw new CannotAcquireLockException("Failed to lock mutex at " + key, e);
        }
        // the grant came after its whole lease was spent: no grant (the kernel released it);
        // lock() tries again (a slow reply on a loaded backend), but not forever
        if (deadline < 0 && ++lateGrants < LATE_GRANTS_BEFORE_FAILING) {
          continue;
        }
        if (deadline < 0) {
          throw new CannotAcquireLockException(
              "Failed to lock mutex at "
                  + key
                  + ": the lease "
                  + lease
                  + " is shorter than a reply",
              e);
        }
        granted = Optional.empty();
      }
      if (granted.isPresent() || deadline <= 0) {
        return granted;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return granted;
      }
      LockSupport.parkNanos(Math.min(idle, left));
      if (Thread.interrupted()) {
        throw new InterruptedException("interrupted while locking '" + key + "'");
      }
    }
  }

  /**
   * Renews the lease of a held lock (the caller need not be the owning thread: Spring Integration
   * renews from a scheduler).
   *
   * @throws IllegalStateException ("Could not renew mutex at ...") when the lock is not held by
   *     this registry, the backend refused (the lease is lost) or the backend call failed
   */
  void renew(Duration lease) {
    LockHandle h = handle;
    if (h == null || !local.isLocked() || !h.extend(positive(lease))) {
      throw new IllegalStateException("Could not renew mutex at " + key);
    }
  }

  /** The renewal task's step: renews with the grant's lease, stops once the lease is gone. */
  void renewScheduled() {
    LockHandle h = handle;
    Duration lease = grantLease;
    if (h == null || lease == null || !h.isHeld()) {
      stopRenewal();
      return;
    }
    try {
      h.extend(lease); // a refusal loses the handle; a failure keeps the lease end and retries
    } catch (LockInterruptedException e) {
      Thread.currentThread().interrupt(); // the scheduler cancelled us
    }
    if (!h.isHeld()) {
      stopRenewal();
    }
  }

  private void stopRenewal() {
    ScheduledFuture<?> r = renewal;
    renewal = null;
    if (r != null) {
      r.cancel(false);
    }
  }

  @Override
  public void unlock() {
    if (!local.isHeldByCurrentThread()) {
      throw new IllegalStateException("You do not own lock at " + key);
    }
    if (local.getHoldCount() > 1) {
      local.unlock();
      return;
    }
    LockHandle h = handle;
    boolean lost;
    try {
      stopRenewal();
      handle = null;
      grantLease = null;
      boolean wasHeld = h != null && h.isHeld();
      if (h != null) {
        // join() waits also on an interrupted thread (and keeps its flag): the next holder of
        // this lock must find the key released in the backend, as Spring's registries ensure
        h.closeAsync().join();
      }
      lost = h != null && (!wasHeld || h.lost().isDone());
    } finally {
      local.unlock();
    }
    if (lost) {
      throw new ConcurrentModificationException(
          "Lock was released in the store due to expiration. The integrity of data protected by"
              + " the lock at "
              + key
              + " may have been compromised.");
    }
  }

  /** Not supported: a condition cannot span processes. */
  @Override
  public Condition newCondition() {
    throw new UnsupportedOperationException("Conditions are not supported");
  }

  private static Duration positive(Duration ttl) {
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("ttl must be positive, but was " + ttl);
    }
    return ttl;
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
