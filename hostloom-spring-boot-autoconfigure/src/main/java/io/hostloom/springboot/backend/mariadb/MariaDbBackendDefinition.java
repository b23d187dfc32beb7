package io.hostloom.springboot.backend.mariadb;

import io.hostloom.springboot.backend.BackendDefinition;
import io.hostloom.springboot.backend.postgres.PostgresBackendDefinition;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Binder;

/** {@code hostloom.backend=mariadb} (MariaDB): the rules of {@code hostloom.mariadb.*}. */
public final class MariaDbBackendDefinition implements BackendDefinition {
  @Override
  public String name() {
    return "mariadb";
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
    MariaDbBackendProperties props =
        binder
            .bind("hostloom.mariadb", MariaDbBackendProperties.class)
            .orElseGet(MariaDbBackendProperties::new);
    PostgresBackendDefinition.validateJdbc("mariadb", props, context, problems);
  }
}
