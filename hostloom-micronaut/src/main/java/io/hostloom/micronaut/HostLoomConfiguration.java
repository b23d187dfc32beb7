package io.hostloom.micronaut;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.util.Optional;

/**
 * {@code hostloom.backend}: where locks live, by the same name as in the Spring Boot starter
 * ({@code memory}, {@code redis}, {@code etcd} or {@code zookeeper} here). Each backend's beans
 * exist only for its own value and when its module is on the classpath; unset, the application
 * defines its own {@code LockBackend} bean (or disables locking with {@code
 * hostloom.locking.enabled=false}).
 */
@ConfigurationProperties("hostloom")
public interface HostLoomConfiguration {
  /** The property that chooses the backend. */
  String BACKEND = "hostloom.backend";

  /** {@value #BACKEND}; empty when not set. */
  Optional<String> getBackend();
}
