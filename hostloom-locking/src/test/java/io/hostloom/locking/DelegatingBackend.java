package io.hostloom.locking;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.testing.ForwardingLockBackend;

/** The testkit's forwarding backend, with the name the kernel tests use for their delegate. */
class DelegatingBackend extends ForwardingLockBackend {
  final LockBackend inner;

  DelegatingBackend(LockBackend inner) {
    super(inner);
    this.inner = inner;
  }
}
