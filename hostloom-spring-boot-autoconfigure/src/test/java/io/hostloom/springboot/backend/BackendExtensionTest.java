package io.hostloom.springboot.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.hostloom.springboot.HostLoomConfigurationException;
import io.hostloom.springboot.HostLoomProperties;
import io.hostloom.springboot.HostLoomSettings;
import io.hostloom.springboot.backend.memory.MemoryBackendDefinition;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * A backend the starter does not know: it becomes a {@code hostloom.backend} value, its module is
 * checked, and its problems join the one start-up message with the core's.
 */
class BackendExtensionTest {
  /** A backend of another module: {@code hostloom.etcd.endpoints} is required. */
  static final class EtcdBackendDefinition implements BackendDefinition {
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
      problems.add("hostloom.etcd.endpoints is required with hostloom.backend=etcd");
    }
  }

  static HostLoomSettings.Context context(boolean modulePresent) {
    return new HostLoomSettings.Context(
        List.of(new MemoryBackendDefinition(), new EtcdBackendDefinition()),
        List.of(),
        false,
        type -> false,
        c -> modulePresent);
  }

  static HostLoomProperties properties(String namespace) {
    HostLoomProperties p = new HostLoomProperties();
    p.setBackend("etcd");
    p.getLocking().setNamespace(namespace);
    return p;
  }

  @Test
  void aNewBackendsProblemsJoinTheOneMessage() {
    HostLoomConfigurationException e =
        catchThrowableOfType(
            HostLoomConfigurationException.class,
            () ->
                HostLoomSettings.validate(
                    properties("Bad Space"),
                    new Binder(new MapConfigurationPropertySource()),
                    context(true)));
    assertThat(e.problems())
        .contains("hostloom.etcd.endpoints is required with hostloom.backend=etcd")
        .anyMatch(p -> p.startsWith("hostloom.locking.namespace"));
  }

  @Test
  void aNewBackendIsChosenByItsNameAndItsMissingModuleIsNamed() {
    Binder binder =
        new Binder(new MapConfigurationPropertySource(Map.of("hostloom.etcd.endpoints", "x")));
    assertThat(HostLoomSettings.validate(properties("ok"), binder, context(true)).backend())
        .get()
        .isInstanceOf(EtcdBackendDefinition.class);
    HostLoomConfigurationException e =
        catchThrowableOfType(
            HostLoomConfigurationException.class,
            () -> HostLoomSettings.validate(properties("ok"), binder, context(false)));
    assertThat(e.problems())
        .containsExactly(
            "hostloom.backend=etcd needs com.example:etcd-locks on the classpath (add it as a"
                + " dependency)");
  }
}
