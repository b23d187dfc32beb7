package io.hostloom.integration;

import io.hostloom.jdbc.IntLockTableBackend;
import io.hostloom.jdbc.JdbcLockBackend;
import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockingOptions;
import java.util.concurrent.locks.Lock;
import javax.sql.DataSource;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.integration.support.locks.LockRegistry;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

// snippet:int-lock-steps
/** The registries of each step of docs/migrating.md's rolling migration from JdbcLockRegistry. */
final class IntLockMigrationConfig {
  private IntLockMigrationConfig() {}

  /** Step 0, the nodes not migrated yet: Spring's registry on INT_LOCK. */
  static LockRegistry<?> spring(DataSource dataSource) {
    DefaultLockRepository repository = new DefaultLockRepository(dataSource);
    repository.setTransactionManager(new DataSourceTransactionManager(dataSource));
    repository.afterPropertiesSet(); // a Spring context calls these two for a bean
    repository.afterSingletonsInstantiated();
    return new JdbcLockRegistry(repository);
  }

  /** Step 1: HostLoom on INT_LOCK (lock key "k" is the backend key "jobs:lock:k"). */
  static HostLoomLockRegistry compat(DataSource dataSource) {
    IntLockTableBackend backend =
        IntLockTableBackend.builder(dataSource).keyPrefix("jobs:lock:").build();
    return HostLoomLockRegistry.builder(DistributedLock.create(LockingOptions.of("jobs"), backend))
        .build();
  }

  /** Step 3: HostLoom's own table only. */
  static HostLoomLockRegistry own(DataSource dataSource) {
    JdbcLockBackend backend = JdbcLockBackend.builder(dataSource).build();
    return HostLoomLockRegistry.builder(DistributedLock.create(LockingOptions.of("jobs"), backend))
        .build();
  }

  /**
   * Step 2: both locks, INT_LOCK's first, around the work; excludes with step-1 and step-3 nodes.
   * Returns whether the work ran (false: a lock was busy).
   */
  static boolean runWithBoth(
      HostLoomLockRegistry compat, HostLoomLockRegistry own, String key, Runnable work) {
    Lock first = compat.obtain(key);
    if (!first.tryLock()) {
      return false;
    }
    try {
      Lock second = own.obtain(key);
      if (!second.tryLock()) {
        return false;
      }
      try {
        work.run();
        return true;
      } finally {
        second.unlock();
      }
    } finally {
      first.unlock();
    }
  }
}
// end:int-lock-steps
