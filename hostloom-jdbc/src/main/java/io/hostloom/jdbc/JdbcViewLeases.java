package io.hostloom.jdbc;

import io.hostloom.jdbc.ViewDialect.Role;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * One native view of a {@link JdbcLockBackend}: the read or write view of a reader-writer lock
 * ({@link io.hostloom.locking.spi.ReadWriteLeases}) or the permit view of a semaphore ({@link
 * io.hostloom.locking.spi.PermitLeases}). Each operation is one {@link ViewDialect} call, one round
 * trip, through the backend's runner, bounds, argument checks, stored forms and failure mapping; a
 * release is announced on the backend's release signal as a release of the view key. Thread-safe.
 */
final class JdbcViewLeases implements LockBackend {
  private final JdbcLockBackend backend;
  private final ViewDialect views;
  private final Role role;
  private final int max;

  JdbcViewLeases(JdbcLockBackend backend, ViewDialect views, Role role, int max) {
    this.backend = backend;
    this.views = views;
    this.role = role;
    this.max = max;
  }

  private String op(String what) {
    return role.name().toLowerCase(java.util.Locale.ROOT) + " view " + what;
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    return backend.run(
        op("acquire"),
        views.acquire(
            role,
            JdbcLockBackend.storedKey(key),
            JdbcLockBackend.storedOwner(owner),
            JdbcLockBackend.storedData(data),
            JdbcLockBackend.leaseMillis(lease),
            max));
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    return backend.run(
        op("extend"),
        views.extend(
            role,
            JdbcLockBackend.storedKey(key),
            JdbcLockBackend.storedOwner(owner),
            JdbcLockBackend.leaseMillis(lease)));
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    return backend.run(
        op("release"),
        views.release(
            role,
            JdbcLockBackend.storedKey(key),
            JdbcLockBackend.storedOwner(owner),
            backend.notifiesReleases()));
  }

  /** Not part of the views: the lease engine never replaces. */
  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    JdbcLockBackend.storedKey(key);
    JdbcLockBackend.storedOwner(expectedOwner);
    JdbcLockBackend.storedOwner(newOwner);
    JdbcLockBackend.storedData(newData);
    JdbcLockBackend.leaseMillis(lease);
    return CompletableFuture.failedFuture(
        LockBackendException.other("a JDBC " + op("does not replace entries"), null));
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    return backend.run(op("read"), views.read(role, JdbcLockBackend.storedKey(key)));
  }

  @Override
  public String name() {
    return backend.name();
  }

  @Override
  public String toString() {
    return "JdbcViewLeases[" + backend.table() + ", " + role + ", max=" + max + "]";
  }
}
