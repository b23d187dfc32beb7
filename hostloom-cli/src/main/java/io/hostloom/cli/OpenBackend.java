package io.hostloom.cli;

import io.hostloom.locking.spi.LockBackend;
import java.util.ArrayList;
import java.util.List;

/**
 * A backend built from a URI together with what it was built on (a connection pool), closed in
 * reverse order of opening.
 */
final class OpenBackend implements AutoCloseable {
  private final LockBackend backend;
  private final List<AutoCloseable> resources;

  OpenBackend(LockBackend backend, List<AutoCloseable> resources) {
    this.backend = backend;
    this.resources = new ArrayList<>(resources);
  }

  LockBackend backend() {
    return backend;
  }

  /** Closes everything; failures are ignored: hostloom is exiting. */
  @Override
  public void close() {
    for (int i = resources.size() - 1; i >= 0; i--) {
      try {
        resources.get(i).close();
      } catch (Exception e) {
        // nothing to do on the way out; the backend's leases expire on their own
      }
    }
  }
}
