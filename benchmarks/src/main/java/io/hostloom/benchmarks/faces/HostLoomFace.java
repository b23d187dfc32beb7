package io.hostloom.benchmarks.faces;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.wopi.WopiLockProvider;
import io.hostloom.wopi.WopiLockResult;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/** Both HostLoom faces over one backend: {@code DistributedLock} and {@code WopiLockProvider}. */
final class HostLoomFace implements Face {
  private final DistributedLock lock;
  private final WopiLockProvider wopi;
  private final LongSupplier roundTrips;
  private final LongSupplier requests;
  private final Runnable onClose;
  private final Map<String, LockHandle> held = new HashMap<>();

  HostLoomFace(
      LockBackend backend, WopiLockProvider wopi, LongSupplier roundTrips, Runnable onClose) {
    this(backend, wopi, roundTrips, roundTrips, onClose);
  }

  /** With a request counter of its own (requests in the background or pipelined). */
  HostLoomFace(
      LockBackend backend,
      WopiLockProvider wopi,
      LongSupplier roundTrips,
      LongSupplier requests,
      Runnable onClose) {
    this.lock = DistributedLock.create(LockingOptions.of("bench"), backend);
    this.wopi = wopi;
    this.roundTrips = roundTrips;
    this.requests = requests;
    this.onClose = onClose;
  }

  @Override
  public void acquire(String key) {
    held.put(key, lock.tryAcquire(key).orElseThrow(() -> new IllegalStateException("busy")));
  }

  @Override
  public void release(String key) {
    held.remove(key).close();
  }

  @Override
  public void lock(String file, String lockId) {
    check(wopi.add(file, lockId), "lock");
  }

  @Override
  public void refresh(String file, String lockId) {
    check(wopi.refresh(file, lockId), "refresh");
  }

  @Override
  public String getLock(String file) {
    return wopi.getLock(file).map(i -> i.lockId()).orElse("");
  }

  @Override
  public void relock(String file, String newLockId, String oldLockId) {
    check(wopi.unlockAndRelock(file, newLockId, oldLockId), "relock");
  }

  @Override
  public void unlock(String file, String lockId) {
    check(wopi.remove(file, lockId), "unlock");
  }

  private static void check(WopiLockResult r, String what) {
    if (!r.success()) {
      throw new IllegalStateException(what + " failed: " + r.currentLockIdOrEmpty());
    }
  }

  @Override
  public long roundTrips() {
    return roundTrips.getAsLong();
  }

  @Override
  public long requests() {
    return requests.getAsLong();
  }

  @Override
  public void close() {
    lock.close();
    onClose.run();
  }
}
