package io.hostloom.shedlock;

import io.hostloom.jdbc.CompatDatabase;
import io.hostloom.jdbc.RollingMigrationSuite;

/**
 * The rolling migration from ShedLock's JDBC provider on a real PostgreSQL, ShedLock's table as its
 * README creates it: step 0 is ShedLock 7.9's own {@code JdbcTemplateLockProvider} ({@code
 * usingDbTime()}), step 1 {@code HostLoomLockProvider} over {@code ShedLockTableBackend}, step 2
 * {@code MigrationLockProvider} over both tables, step 3 HostLoom's own table ({@link
 * ShedLockMigrationConfig}, run by {@link ShedLockJobNode}).
 */
class ShedLockRollingMigrationTest extends RollingMigrationSuite {
  @Override
  protected Class<?> node() {
    return ShedLockJobNode.class;
  }

  @Override
  protected String oldKind() {
    return "shedlock";
  }

  @Override
  protected CompatDatabase startDatabase() {
    return CompatDatabase.withShedLockTable("shedlock-compat");
  }
}
