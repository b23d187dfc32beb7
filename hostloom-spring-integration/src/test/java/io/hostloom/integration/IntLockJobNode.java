package io.hostloom.integration;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.testkit.migration.MigrationRun;
import io.hostloom.testkit.migration.OccurrenceSchedule;
import java.util.concurrent.locks.Lock;
import javax.sql.DataSource;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * One node of {@link IntLockRollingMigrationTest}, in a JVM of its own: the job {@code report-job}
 * guarded by {@code registry.obtain("report-job").tryLock()}, through the step its kind names.
 *
 * <p>Arguments: {@code kind node ledger periodMillis occurrences jdbcUrl} ({@link
 * MigrationRun#pair}); kinds: {@code spring}, {@code compat}, {@code bridge}, {@code own} (the
 * steps of {@link IntLockMigrationConfig}), {@code unlocked} (no lock).
 */
public final class IntLockJobNode {
  static final String JOB = "report-job";

  private IntLockJobNode() {}

  public static void main(String[] args) throws Exception {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(args[5]);
    config.setMaximumPoolSize(4);
    try (HikariDataSource ds = new HikariDataSource(config)) {
      OccurrenceSchedule.Guard guard = guard(args[0], ds);
      guard.runExclusively(-1, () -> {}); // first statements before the start
      MigrationRun.serve(args, guard);
    }
    System.exit(0); // the kernel's and the pool's daemon threads need no orderly end here
  }

  private static OccurrenceSchedule.Guard guard(String kind, DataSource ds) {
    return switch (kind) {
      case "spring" -> locked(IntLockMigrationConfig.spring(ds));
      case "compat" -> locked(IntLockMigrationConfig.compat(ds));
      case "own" -> locked(IntLockMigrationConfig.own(ds));
      case "bridge" -> {
        HostLoomLockRegistry compat = IntLockMigrationConfig.compat(ds);
        HostLoomLockRegistry own = IntLockMigrationConfig.own(ds);
        yield (occurrence, job) ->
            IntLockMigrationConfig.runWithBoth(compat, own, key(occurrence), job);
      }
      case "unlocked" ->
          (occurrence, job) -> {
            job.run();
            return true;
          };
      default -> throw new IllegalArgumentException("unknown kind " + kind);
    };
  }

  static OccurrenceSchedule.Guard locked(LockRegistry<?> registry) {
    return (occurrence, job) -> {
      Lock lock = registry.obtain(key(occurrence));
      if (!lock.tryLock()) {
        return false;
      }
      try {
        job.run();
      } finally {
        lock.unlock();
      }
      return true;
    };
  }

  /** The job's lock; occurrence -1 is the warm-up's own. */
  static String key(int occurrence) {
    return occurrence < 0 ? "warm-up" : JOB;
  }
}
