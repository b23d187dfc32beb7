package io.hostloom.locking.testing;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.support.DelegatingLockBackend;

/**
 * A {@link LockBackend} that forwards every operation to {@link #delegate}; tests extend it and
 * override the one operation they want to change (a planted defect, a slow reply, an extra
 * capability such as a health probe). The forwarding itself is {@link DelegatingLockBackend}'s;
 * this class adds the public constructor, the {@code delegate} field and the delegate's name.
 */
public class ForwardingLockBackend extends DelegatingLockBackend {
  protected final LockBackend delegate;

  public ForwardingLockBackend(LockBackend delegate) {
    this.delegate = delegate;
  }

  @Override
  protected LockBackend delegate() {
    return delegate;
  }

  @Override
  public String name() {
    return delegate == null ? getClass().getSimpleName() : delegate.name();
  }
}
