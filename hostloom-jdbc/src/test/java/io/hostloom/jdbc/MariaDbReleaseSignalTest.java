package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.capability.ReleaseSignalSuite;
import java.util.OptionalInt;

/**
 * The release-signal suite on MariaDB, which has no LISTEN/NOTIFY: every wait polls the key's row
 * (see {@code PollingReleaseWatcher}), and, as on PostgreSQL, an expiry signals nothing.
 */
class MariaDbReleaseSignalTest extends ReleaseSignalSuite {
  @Override
  protected LockBackend newBackend() {
    return MariaDbTestDatabase.backend().releaseNotifications(true).build();
  }

  @Override
  protected OptionalInt pendingWaits(LockBackend instance) {
    return ((JdbcLockBackend) instance).pendingReleaseWaits();
  }
}
