package io.hostloom.springboot.backend.postgres;

import io.hostloom.springboot.backend.BackendDefinition;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.bind.Binder;

/** {@code hostloom.backend=postgres}: the rules of {@code hostloom.postgres.*}. */
public final class PostgresBackendDefinition implements BackendDefinition {
  private static final Pattern SQL_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,47}");

  @Override
  public String name() {
    return "postgres";
  }

  @Override
  public Optional<String> backendClass() {
    return Optional.of("io.hostloom.jdbc.JdbcLockBackend");
  }

  @Override
  public String artifact() {
    return "io.hostloom:hostloom-jdbc";
  }

  @Override
  public void validate(Binder binder, Context context, List<String> problems) {
    PostgresBackendProperties pg =
        binder
            .bind("hostloom.postgres", PostgresBackendProperties.class)
            .orElseGet(PostgresBackendProperties::new);
    validateJdbc("postgres", pg, context, problems);
  }

  /**
   * The rules of a backend on {@code JdbcLockBackend} ({@code hostloom.<backend>.*}): a DataSource
   * bean, plain identifiers, positive bounds. Shared with {@code hostloom.backend=mariadb}.
   */
  public static void validateJdbc(
      String backend, PostgresBackendProperties pg, Context context, List<String> problems) {
    String prefix = "hostloom." + backend;
    if (!context.beanOfType().test("javax.sql.DataSource")) {
      problems.add(
          "hostloom.backend="
              + backend
              + " needs a javax.sql.DataSource bean (set spring.datasource.url, or define one)");
    }
    identifier(prefix + ".schema", pg.getSchema(), problems);
    identifier(prefix + ".table", pg.getTable(), problems);
    BackendDefinition.requirePositive(
        prefix + ".command-timeout", pg.getCommandTimeout(), problems);
    BackendDefinition.requirePositive(
        prefix + ".executor-threads", pg.getExecutorThreads(), problems);
    BackendDefinition.requirePositive(
        prefix + ".max-queued-calls", pg.getMaxQueuedCalls(), problems);
  }

  private static void identifier(String key, String value, List<String> problems) {
    if (value == null || !SQL_IDENTIFIER.matcher(value).matches()) {
      problems.add(
          key
              + " must be an unquoted SQL identifier (a letter or _, then letters, digits"
              + " or _, at most 48) but was '"
              + value
              + "'");
    }
  }
}
