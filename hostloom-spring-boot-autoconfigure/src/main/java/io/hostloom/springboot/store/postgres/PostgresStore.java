package io.hostloom.springboot.store.postgres;

import io.hostloom.springboot.store.HostloomStore;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.bind.Binder;

/** {@code hostloom.store=postgres}: the rules of {@code hostloom.postgres.*}. */
public final class PostgresStore implements HostloomStore {
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
    PostgresStoreProperties pg =
        binder
            .bind("hostloom.postgres", PostgresStoreProperties.class)
            .orElseGet(PostgresStoreProperties::new);
    validateJdbc("postgres", pg, context, problems);
  }

  /**
   * The rules of a store on {@code JdbcLockBackend} ({@code hostloom.<store>.*}): a DataSource
   * bean, plain identifiers, positive bounds. Shared with {@code hostloom.store=mysql}.
   */
  public static void validateJdbc(
      String store, PostgresStoreProperties pg, Context context, List<String> problems) {
    String prefix = "hostloom." + store;
    if (!context.beanOfType().test("javax.sql.DataSource")) {
      problems.add(
          "hostloom.store="
              + store
              + " needs a javax.sql.DataSource bean (set spring.datasource.url, or define one)");
    }
    identifier(prefix + ".schema", pg.getSchema(), problems);
    identifier(prefix + ".table", pg.getTable(), problems);
    HostloomStore.requirePositive(prefix + ".command-timeout", pg.getCommandTimeout(), problems);
    HostloomStore.requirePositive(prefix + ".executor-threads", pg.getExecutorThreads(), problems);
    HostloomStore.requirePositive(prefix + ".max-queued-calls", pg.getMaxQueuedCalls(), problems);
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
