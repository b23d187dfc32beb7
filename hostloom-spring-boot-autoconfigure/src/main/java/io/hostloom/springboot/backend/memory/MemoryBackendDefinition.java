package io.hostloom.springboot.backend.memory;

import io.hostloom.springboot.backend.BackendDefinition;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Binder;

/** {@code hostloom.backend=memory}: the kernel's in-memory backend; it has no settings. */
public final class MemoryBackendDefinition implements BackendDefinition {
  @Override
  public String name() {
    return "memory";
  }

  @Override
  public Optional<String> backendClass() {
    return Optional.empty();
  }

  @Override
  public String artifact() {
    return "io.hostloom:hostloom-locking";
  }

  @Override
  public void validate(Binder binder, Context context, List<String> problems) {}
}
