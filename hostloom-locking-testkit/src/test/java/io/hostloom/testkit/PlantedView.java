package io.hostloom.testkit;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.locking.testing.ForwardingLockBackend;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A correct view with the defects both view suites must catch planted on request, for their
 * self-tests; a self-test adds its own through the hooks (another key, owner or answer).
 */
public class PlantedView extends ForwardingLockBackend {
  /** The defects every view can have. */
  public enum CommonDefect {
    NONE,
    /** a refused extend answers the holder's record */
    STRANGER_SEES_HOLDER,
    /** every lease is 5 minutes */
    NEVER_EXPIRES,
    /** replace succeeds */
    REPLACES
  }

  private final CommonDefect defect;

  public PlantedView(LockBackend view, CommonDefect defect) {
    super(view);
    this.defect = defect;
  }

  /** The key the correct view is called with; {@code key} unless overridden. */
  protected String key(String key) {
    return key;
  }

  /** The owner an acquire is sent with; {@code owner} unless overridden. */
  protected String owner(String owner) {
    return owner;
  }

  /** What an acquire answers, given the correct view's answer; that answer unless overridden. */
  protected CompletableFuture<AcquireOutcome> answer(String key, String owner, AcquireOutcome o) {
    return CompletableFuture.completedFuture(o);
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    Duration l = defect == CommonDefect.NEVER_EXPIRES ? Duration.ofMinutes(5) : lease;
    return delegate
        .acquire(key(key), owner(owner), data, l)
        .thenCompose(o -> answer(key(key), owner, o));
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    return delegate
        .extend(key(key), owner, lease)
        .thenCompose(
            o ->
                o.extended() || defect != CommonDefect.STRANGER_SEES_HOLDER
                    ? CompletableFuture.completedFuture(o)
                    : delegate
                        .read(key(key))
                        .thenApply(r -> r.map(ExtendOutcome::mismatch).orElse(o)));
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    return delegate.release(key(key), owner);
  }

  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    return defect == CommonDefect.REPLACES
        ? CompletableFuture.completedFuture(ReplaceOutcome.replaced(1))
        : delegate.replace(key(key), expectedOwner, newOwner, newData, lease);
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    return delegate.read(key(key));
  }
}
