package io.hostloom.testkit;

import io.hostloom.locking.spi.LockBackend;

/**
 * The forwarding backend under its old name.
 *
 * @deprecated moved to the kernel jar as {@link io.hostloom.locking.testing.ForwardingLockBackend}
 *     (the kernel's own tests need it); this subclass only keeps existing tests compiling.
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public class ForwardingLockBackend extends io.hostloom.locking.testing.ForwardingLockBackend {
  public ForwardingLockBackend(LockBackend delegate) {
    super(delegate);
  }
}
