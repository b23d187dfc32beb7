package io.hostloom.micronaut.backend;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@code hostloom.etcd.*}, the Spring Boot starter's names: {@code endpoints} (required), {@code
 * command-timeout}, {@code health-timeout}, {@code key-prefix}. A setting left out keeps the
 * builder's default ({@code EtcdLockBackend.DEFAULT_*}).
 */
@ConfigurationProperties("hostloom.etcd")
public interface EtcdConfiguration {
  /** The etcd client endpoints, e.g. http://etcd-1:2379,http://etcd-2:2379. */
  Optional<List<String>> getEndpoints();

  /** The bound of every lock operation (lease grant, transaction, TTL). */
  Optional<Duration> getCommandTimeout();

  /** The bound of the health probe's quorum read. */
  Optional<Duration> getHealthTimeout();

  /** The prefix of every etcd key the backend writes. */
  Optional<String> getKeyPrefix();
}
