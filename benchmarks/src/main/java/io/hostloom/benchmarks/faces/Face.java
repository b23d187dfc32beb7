package io.hostloom.benchmarks.faces;

/**
 * The operations timed on a storage backend, implemented once through HostLoom (kernel and WOPI
 * faces) and once with the raw client making the same minimum calls. Each method blocks until the
 * operation is done and throws when it did not succeed.
 */
interface Face extends AutoCloseable {

  /** Kernel face: one acquisition attempt of a free {@code key}. */
  void acquire(String key) throws Exception;

  /** Kernel face: releases {@code key}, acquired by {@link #acquire}. */
  void release(String key) throws Exception;

  /** WOPI LOCK of an unlocked file. */
  void lock(String file, String lockId) throws Exception;

  /** WOPI REFRESH_LOCK with the current lock id. */
  void refresh(String file, String lockId) throws Exception;

  /** WOPI GET_LOCK; returns the current lock id or "". */
  String getLock(String file) throws Exception;

  /** WOPI LOCK with X-WOPI-OldLock (UnlockAndRelock). */
  void relock(String file, String newLockId, String oldLockId) throws Exception;

  /** WOPI UNLOCK with the current lock id. */
  void unlock(String file, String lockId) throws Exception;

  /**
   * Round trips the caller waited for so far, counted on the wire side of the client (HTTP
   * requests, statements and commits, gRPC calls, ZooKeeper request bursts).
   */
  long roundTrips();

  /**
   * Requests sent so far, also those sent in the background or pipelined behind another in one
   * round trip; by default the round trips.
   */
  default long requests() {
    return roundTrips();
  }

  @Override
  void close();
}
