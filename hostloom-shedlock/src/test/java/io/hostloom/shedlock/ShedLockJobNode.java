package io.hostloom.shedlock;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.testkit.migration.MigrationRun;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * One node of {@link ShedLockRollingMigrationTest}, in a JVM of its own: the job {@code report-job}
 * on ShedLock's {@code LockProvider} contract, through the provider its kind names.
 *
 * <p>Arguments: {@code kind node ledger periodMillis occurrences jdbcUrl} ({@link
 * MigrationRun#pair}); kinds: {@code shedlock} (ShedLock's {@code JdbcTemplateLockProvider}, DB
 * time), {@code compat}, {@code bridge}, {@code own} (the steps of {@link
 * ShedLockMigrationConfig}), {@code unlocked} (grants everything).
 */
public final class ShedLockJobNode {
  static final String TABLE = "shedlock";
  static final String JOB = "report-job";

  private ShedLockJobNode() {}

  public static void main(String[] args) throws Exception {
    String kind = args[0];
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(args[5]);
    config.setMaximumPoolSize(4);
    try (HikariDataSource ds = new HikariDataSource(config)) {
      serve(args, provider(kind, ds));
    }
    System.exit(0); // the kernel's and the pool's daemon threads need no orderly end here
  }

  /** Runs the schedule of {@code args} ({@link MigrationRun#pair}) through {@code provider}. */
  static void serve(String[] args, LockProvider provider) throws Exception {
    Duration period = Duration.ofMillis(Long.parseLong(args[3]));
    LockConfiguration warmUp =
        new LockConfiguration(
            Instant.now(), "warm-up-" + args[1], Duration.ofSeconds(30), Duration.ZERO);
    provider.lock(warmUp).ifPresent(SimpleLock::unlock); // first commands before the start
    MigrationRun.serve(
        args,
        (occurrence, job) -> {
          Optional<SimpleLock> lock =
              provider.lock(
                  new LockConfiguration(
                      Instant.now(),
                      JOB,
                      Duration.ofSeconds(30),
                      period.multipliedBy(3).dividedBy(4)));
          if (lock.isEmpty()) {
            return false;
          }
          try {
            job.run();
          } finally {
            lock.get().unlock();
          }
          return true;
        });
  }

  static LockProvider provider(String kind, DataSource dataSource) {
    return switch (kind) {
      case "shedlock" -> ShedLockMigrationConfig.shedLock(dataSource);
      case "compat" -> ShedLockMigrationConfig.compat(dataSource);
      case "bridge" -> ShedLockMigrationConfig.bridge(dataSource);
      case "own" -> ShedLockMigrationConfig.own(dataSource);
      case "unlocked" -> config -> Optional.of(() -> {});
      default -> throw new IllegalArgumentException("unknown kind " + kind);
    };
  }
}
