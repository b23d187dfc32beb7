package io.hostloom.shedlock;

import io.hostloom.jdbc.JdbcLockBackend;
import io.hostloom.jdbc.ShedLockTableBackend;
import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockingOptions;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.springframework.jdbc.core.JdbcTemplate;

// snippet:shedlock-steps
/** The providers of each step of docs/migrating.md's rolling migration from ShedLock's JDBC. */
final class ShedLockMigrationConfig {
  private ShedLockMigrationConfig() {}

  /** Step 0, the nodes not migrated yet: ShedLock's provider, on the database's clock. */
  static LockProvider shedLock(DataSource dataSource) {
    return new JdbcTemplateLockProvider(
        JdbcTemplateLockProvider.Configuration.builder()
            .withJdbcTemplate(new JdbcTemplate(dataSource))
            .withTableName("shedlock")
            .usingDbTime() // expiry on the database's clock, as HostLoom's
            .build());
  }

  /** Step 1: HostLoom on ShedLock's table; excludes with step-0 nodes. */
  static LockProvider compat(DataSource dataSource) {
    ShedLockTableBackend backend =
        ShedLockTableBackend.builder(dataSource)
            .table("shedlock")
            .keyPrefix("jobs:lock:" + HostLoomLockProvider.KEY_PREFIX) // the name is the rest
            .build();
    return new HostLoomLockProvider(DistributedLock.create(LockingOptions.of("jobs"), backend));
  }

  /** Step 2: both tables, ShedLock's first; excludes with step-1 and step-3 nodes. */
  static LockProvider bridge(DataSource dataSource) {
    return MigrationLockProvider.of(compat(dataSource), own(dataSource));
  }

  /** Step 3: HostLoom's own table only. */
  static LockProvider own(DataSource dataSource) {
    JdbcLockBackend backend = JdbcLockBackend.builder(dataSource).build();
    return new HostLoomLockProvider(DistributedLock.create(LockingOptions.of("jobs"), backend));
  }
}
// end:shedlock-steps
