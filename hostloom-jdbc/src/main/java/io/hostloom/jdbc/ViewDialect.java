package io.hostloom.jdbc;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.ReleaseOutcome;
import java.util.Optional;

/**
 * The statements of the native views ({@link JdbcViewLeases}) on one engine: each operation one
 * call, one round trip. Arguments arrive checked and in their stored form, leases in whole
 * milliseconds.
 */
interface ViewDialect {
  /** The role of an entry and of the view that holds it. */
  enum Role {
    /** A reader of a reader-writer lock. */
    READ('r'),
    /** The writer of a reader-writer lock. */
    WRITE('w'),
    /** A permit of a semaphore. */
    PERMIT('p');

    final String code;

    Role(char code) {
      this.code = String.valueOf(code);
    }
  }

  /** {@code max}: the most readers (read and write views) or the permit count. */
  Dialect.Call<AcquireOutcome> acquire(
      Role role, String key, String owner, String data, long leaseMillis, int max);

  Dialect.Call<ExtendOutcome> extend(Role role, String key, String owner, long leaseMillis);

  /** {@code notify}: also announce the release of the view key. */
  Dialect.Call<ReleaseOutcome> release(Role role, String key, String owner, boolean notify);

  Dialect.Call<Optional<LeaseRecord>> read(Role role, String key);
}
