package io.hostloom.locking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.testing.ForwardingLockBackend;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Who closes what: the lock leaves a given backend open unless it was handed to it. */
class BackendOwnershipTest {

  /** The in-memory backend, counting its closes. */
  static final class ClosableBackend extends ForwardingLockBackend implements AutoCloseable {
    final AtomicInteger closes = new AtomicInteger();
    final boolean failOnClose;

    ClosableBackend(boolean failOnClose) {
      super(new InMemoryLockBackend());
      this.failOnClose = failOnClose;
    }

    @Override
    public void close() {
      closes.incrementAndGet();
      if (failOnClose) {
        throw new IllegalStateException("connection already gone");
      }
    }
  }

  @Test
  void byDefaultTheBackendStaysOpenForWhoeverBuiltIt() {
    ClosableBackend backend = new ClosableBackend(false);
    DistributedLock lock = DistributedLock.create(LockingOptions.of("owner-test"), backend);
    lock.close();
    assertThat(backend.closes).hasValue(0);

    // still usable by another lock over the same backend
    try (DistributedLock other = DistributedLock.create(LockingOptions.of("owner-test"), backend)) {
      assertThat(other.tryAcquire("k")).isPresent();
    }
  }

  @Test
  void aBackendHandedToTheLockIsClosedWithItOnce() {
    ClosableBackend backend = new ClosableBackend(false);
    DistributedLock lock =
        DistributedLock.builder(LockingOptions.of("owner-test"), backend)
            .closeBackendOnClose()
            .build();
    assertThat(lock.tryAcquire("k")).isPresent();
    assertThat(lock.options()).isPresent(); // still answers as a kernel lock

    lock.close();
    lock.close();
    assertThat(backend.closes).hasValue(1);
  }

  @Test
  void aDisabledLockClosesAHandedBackendToo() {
    ClosableBackend backend = new ClosableBackend(false);
    DistributedLock lock =
        DistributedLock.builder(
                LockingOptions.builder().namespace("owner-test").enabled(false).build(), backend)
            .closeBackendOnClose()
            .build();
    lock.close();
    assertThat(backend.closes).hasValue(1);
  }

  @Test
  void aBackendThatFailsToCloseDoesNotMakeCloseThrow() {
    ClosableBackend backend = new ClosableBackend(true);
    DistributedLock lock =
        DistributedLock.builder(LockingOptions.of("owner-test"), backend)
            .closeBackendOnClose()
            .build();
    assertThatCode(lock::close).doesNotThrowAnyException();
    assertThat(backend.closes).hasValue(1);
  }
}
