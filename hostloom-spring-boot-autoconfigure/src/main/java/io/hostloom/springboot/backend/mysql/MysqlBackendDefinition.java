package io.hostloom.springboot.backend.mysql;

import io.hostloom.springboot.backend.BackendDefinition;
import io.hostloom.springboot.backend.postgres.PostgresBackendDefinition;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Binder;

/** {@code hostloom.backend=mysql} (MariaDB): the rules of {@code hostloom.mysql.*}. */
public final class MysqlBackendDefinition implements BackendDefinition {
  @Override
  public String name() {
    return "mysql";
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
    MysqlBackendProperties props =
        binder
            .bind("hostloom.mysql", MysqlBackendProperties.class)
            .orElseGet(MysqlBackendProperties::new);
    PostgresBackendDefinition.validateJdbc("mysql", props, context, problems);
  }
}
