package io.hostloom.springboot.store.memory;

import io.hostloom.springboot.store.HostloomStore;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Binder;

/** {@code hostloom.store=memory}: the kernel's in-memory store; it has no settings. */
public final class MemoryStore implements HostloomStore {
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
