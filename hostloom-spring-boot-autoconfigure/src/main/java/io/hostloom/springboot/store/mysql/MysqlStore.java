package io.hostloom.springboot.store.mysql;

import io.hostloom.springboot.store.HostloomStore;
import io.hostloom.springboot.store.postgres.PostgresStore;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Binder;

/** {@code hostloom.store=mysql} (MariaDB): the rules of {@code hostloom.mysql.*}. */
public final class MysqlStore implements HostloomStore {
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
    MysqlStoreProperties props =
        binder
            .bind("hostloom.mysql", MysqlStoreProperties.class)
            .orElseGet(MysqlStoreProperties::new);
    PostgresStore.validateJdbc("mysql", props, context, problems);
  }
}
