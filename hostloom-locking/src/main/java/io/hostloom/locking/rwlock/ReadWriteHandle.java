package io.hostloom.locking.rwlock;

import io.hostloom.locking.LockHandle;

/**
 * A read or write grant of a {@link DistributedReadWriteLock}: a {@link LockHandle} whose {@link
 * #key()} is the lock's name and whose {@link #fencingToken()} follows the reader-writer order (see
 * {@link DistributedReadWriteLock}); everything else (lease, loss, extension, release) is the
 * kernel lease behind it.
 */
public interface ReadWriteHandle extends LockHandle {
  /** Read or write. */
  enum Mode {
    READ,
    WRITE
  }

  /** Whether this is a read or a write grant. */
  Mode mode();
}
