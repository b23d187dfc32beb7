package io.hostloom.micronaut.backend;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code hostloom.zookeeper.*}, the Spring Boot starter's names: {@code connect-string} (required),
 * {@code root-path}, {@code session-timeout}, {@code command-timeout}, {@code health-timeout},
 * {@code release-signal}. A setting left out keeps the builder's default ({@code
 * ZooKeeperLockBackend.DEFAULT_*}).
 */
@ConfigurationProperties("hostloom.zookeeper")
public interface ZooKeeperConfiguration {
  /** The ensemble: host:port[,host:port...][/chroot]. */
  Optional<String> getConnectString();

  /** The znode under which the backend keeps its locks. */
  Optional<String> getRootPath();

  /** The session timeout asked for. */
  Optional<Duration> getSessionTimeout();

  /** The bound of every lock operation, waiting for a connection included. */
  Optional<Duration> getCommandTimeout();

  /** The bound of the health probe's exists request. */
  Optional<Duration> getHealthTimeout();

  /** Whether waiters are woken by a watch on releases. */
  Optional<Boolean> getReleaseSignal();
}
