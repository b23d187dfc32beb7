package io.hostloom.reliability;

import io.hostloom.locking.spi.LockBackend;
import java.util.Objects;

/** A backend client built from a {@link BackendSpec}, with what closes it (and its pool). */
final class BackendClient implements AutoCloseable {
  /** Closes without checked exceptions. */
  interface Closer {
    void close();
  }

  private final LockBackend backend;
  private final Closer closer;

  BackendClient(LockBackend backend, Closer closer) {
    this.backend = Objects.requireNonNull(backend, "backend");
    this.closer = Objects.requireNonNull(closer, "closer");
  }

  LockBackend backend() {
    return backend;
  }

  /** Closes the client; a failure while tearing down is ignored (there is nothing to protect). */
  @Override
  public void close() {
    try {
      closer.close();
    } catch (RuntimeException e) {
      // tearing down after a scenario
    }
  }
}
