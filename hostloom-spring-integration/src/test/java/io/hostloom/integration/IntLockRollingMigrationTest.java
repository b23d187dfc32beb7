package io.hostloom.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.jdbc.CompatDatabase;
import io.hostloom.jdbc.IntLockTableBackend;
import io.hostloom.jdbc.RollingMigrationSuite;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.integration.util.UUIDConverter;

/**
 * The rolling migration from Spring Integration's {@code JdbcLockRegistry} on a real PostgreSQL,
 * {@code INT_LOCK} as Spring's {@code schema-postgresql.sql} creates it: step 0 is Spring
 * Integration 7.0's own registry, step 1 {@code HostLoomLockRegistry} over {@code
 * IntLockTableBackend}, step 2 both locks, step 3 HostLoom's own table ({@link
 * IntLockMigrationConfig}, run by {@link IntLockJobNode}); and the key mapping against Spring's.
 */
class IntLockRollingMigrationTest extends RollingMigrationSuite {
  @Override
  protected Class<?> node() {
    return IntLockJobNode.class;
  }

  @Override
  protected String oldKind() {
    return "spring";
  }

  @Override
  protected CompatDatabase startDatabase() {
    return CompatDatabase.withIntLockTable("int-lock-compat");
  }

  @Test
  void lockKeysMapToTheRowsSpringUses() {
    for (String key :
        List.of(
            "report-job",
            "Ünïcödé-🔒",
            UUID.randomUUID().toString(),
            UUID.randomUUID().toString().toUpperCase(java.util.Locale.ROOT),
            "1-2-3-4-5",
            "x".repeat(5000))) {
      assertThat(IntLockTableBackend.lockKeyOf(key))
          .as(key)
          .isEqualTo(UUIDConverter.getUUID(key).toString());
    }
  }
}
