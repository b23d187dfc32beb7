package io.hostloom.micronaut.backend;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

/**
 * {@code hostloom.backend=memory}: the kernel's {@link InMemoryLockBackend}. Locks live in this JVM
 * only: for tests and single-instance deployments.
 */
@Factory
@Requires(property = "hostloom.backend", value = "memory")
public class MemoryBackendFactory {
  @Singleton
  InMemoryLockBackend hostloomLockBackend() {
    return new InMemoryLockBackend();
  }
}
