package io.hostloom.locking.spi.support;

/**
 * The five operations of {@link io.hostloom.locking.spi.LockBackend}, as {@link LeaseRules} sees
 * them.
 */
public enum LeaseOperation {
  ACQUIRE,
  EXTEND,
  RELEASE,
  REPLACE,
  READ
}
