package io.hostloom.shedlock;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * The phase-1 provider of a rolling migration from another ShedLock provider (see {@code
 * docs/migrating.md}): a lock is granted only when both the {@code old} provider (the store the
 * not-yet-migrated nodes use) and then the {@code current} one (usually a {@link
 * HostLoomLockProvider}) grant it, so this node excludes with old nodes through the old store and,
 * later, with HostLoom-only nodes through the new one. Released in reverse order.
 *
 * <p>{@code lock} makes one call to each provider and never waits; when {@code current} refuses or
 * fails, the old lock is released before the answer (or the exception) is passed on. {@code extend}
 * extends both and returns empty (the job is no longer covered) when either refuses; each lock's
 * own {@code extend} rules apply. A failure of either unlock is thrown after the other unlock ran.
 */
public final class MigrationLockProvider implements LockProvider {
  private final LockProvider old;
  private final LockProvider current;

  private MigrationLockProvider(LockProvider old, LockProvider current) {
    this.old = Objects.requireNonNull(old, "old");
    this.current = Objects.requireNonNull(current, "current");
  }

  /** Grants only what both grant: {@code old} first, then {@code current}. */
  public static MigrationLockProvider of(LockProvider old, LockProvider current) {
    return new MigrationLockProvider(old, current);
  }

  @Override
  public Optional<SimpleLock> lock(LockConfiguration config) {
    Optional<SimpleLock> first = old.lock(config);
    if (first.isEmpty()) {
      return Optional.empty();
    }
    Optional<SimpleLock> second;
    try {
      second = current.lock(config);
    } catch (RuntimeException e) {
      first.get().unlock();
      throw e;
    }
    if (second.isEmpty()) {
      first.get().unlock();
      return Optional.empty();
    }
    return Optional.of(new Both(first.get(), second.get()));
  }

  @Override
  public String toString() {
    return "MigrationLockProvider[old=" + old + ", current=" + current + "]";
  }

  private record Both(SimpleLock old, SimpleLock current) implements SimpleLock {
    @Override
    public void unlock() {
      try {
        current.unlock();
      } finally {
        old.unlock();
      }
    }

    @Override
    public Optional<SimpleLock> extend(Duration lockAtMostFor, Duration lockAtLeastFor) {
      Optional<SimpleLock> o = old.extend(lockAtMostFor, lockAtLeastFor);
      Optional<SimpleLock> c = current.extend(lockAtMostFor, lockAtLeastFor);
      if (o.isEmpty() || c.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(new Both(o.get(), c.get()));
    }
  }
}
