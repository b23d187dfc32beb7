package io.hostloom.locking;

/**
 * The kernel's own locks ({@link LeaseLock}, {@link DisabledLock}): what {@link LockingProbe}
 * reads.
 */
interface KernelLock extends DistributedLock {
  LockingOptions options();

  LockDescription describe();
}
