package io.hostloom.springboot.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.hostloom.springboot.HostloomConfigurationException;
import io.hostloom.springboot.HostloomProperties;
import io.hostloom.springboot.HostloomSettings;
import io.hostloom.springboot.store.memory.MemoryStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * A store the starter does not know: it becomes a {@code hostloom.store} value, its module is
 * checked, and its problems join the one start-up message with the core's.
 */
class StoreExtensionTest {
  /** A store of another module: {@code hostloom.etcd.endpoints} is required. */
  static final class EtcdStore implements HostloomStore {
    @Override
    public String name() {
      return "etcd";
    }

    @Override
    public Optional<String> backendClass() {
      return Optional.of("com.example.EtcdLockBackend");
    }

    @Override
    public String artifact() {
      return "com.example:etcd-locks";
    }

    @Override
    public void validate(Binder binder, Context context, List<String> problems) {
      if (binder.bind("hostloom.etcd.endpoints", String.class).isBound()) {
        return;
      }
      problems.add("hostloom.etcd.endpoints is required with hostloom.store=etcd");
    }
  }

  static HostloomSettings.Context context(boolean modulePresent) {
    return new HostloomSettings.Context(
        List.of(new MemoryStore(), new EtcdStore()),
        List.of(),
        false,
        type -> false,
        c -> modulePresent);
  }

  static HostloomProperties properties(String namespace) {
    HostloomProperties p = new HostloomProperties();
    p.setStore("etcd");
    p.getLocking().setNamespace(namespace);
    return p;
  }

  @Test
  void aNewStoresProblemsJoinTheOneMessage() {
    HostloomConfigurationException e =
        catchThrowableOfType(
            HostloomConfigurationException.class,
            () ->
                HostloomSettings.validate(
                    properties("Bad Space"),
                    new Binder(new MapConfigurationPropertySource()),
                    context(true)));
    assertThat(e.problems())
        .contains("hostloom.etcd.endpoints is required with hostloom.store=etcd")
        .anyMatch(p -> p.startsWith("hostloom.locking.namespace"));
  }

  @Test
  void aNewStoreIsChosenByItsNameAndItsMissingModuleIsNamed() {
    Binder binder =
        new Binder(new MapConfigurationPropertySource(Map.of("hostloom.etcd.endpoints", "x")));
    assertThat(HostloomSettings.validate(properties("ok"), binder, context(true)).store())
        .get()
        .isInstanceOf(EtcdStore.class);
    HostloomConfigurationException e =
        catchThrowableOfType(
            HostloomConfigurationException.class,
            () -> HostloomSettings.validate(properties("ok"), binder, context(false)));
    assertThat(e.problems())
        .containsExactly(
            "hostloom.store=etcd needs com.example:etcd-locks on the classpath (add it as a"
                + " dependency)");
  }
}
