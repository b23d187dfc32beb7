package io.hostloom.springboot.backend.etcd;

import io.hostloom.etcd.EtcdKeyLayout;
import io.hostloom.etcd.EtcdLockBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The etcd backend's settings (hostloom.backend=etcd, module io.hostloom:hostloom-etcd). Defaults
 * are the backend's {@code DEFAULT_*} constants; every other builder option (a jetcd client with
 * TLS or auth, the release signal) is reachable through an {@link EtcdLockBackendBuilderCustomizer}
 * bean.
 */
@ConfigurationProperties("hostloom.etcd")
public class EtcdBackendProperties {
  /** The etcd client endpoints, e.g. http://etcd-1:2379,http://etcd-2:2379. Required. */
  private List<String> endpoints = new ArrayList<>();

  /** The bound of every lock operation (lease grant, transaction, TTL). */
  private Duration commandTimeout = EtcdLockBackend.DEFAULT_COMMAND_TIMEOUT;

  /** The bound of the health probe's quorum read. */
  private Duration healthTimeout = EtcdLockBackend.DEFAULT_HEALTH_TIMEOUT;

  /** The prefix of every etcd key the backend writes (keep it distinct per application). */
  private String keyPrefix = EtcdKeyLayout.DEFAULT_PREFIX;

  public List<String> getEndpoints() {
    return endpoints;
  }

  public void setEndpoints(List<String> endpoints) {
    this.endpoints = endpoints;
  }

  public Duration getCommandTimeout() {
    return commandTimeout;
  }

  public void setCommandTimeout(Duration commandTimeout) {
    this.commandTimeout = commandTimeout;
  }

  public Duration getHealthTimeout() {
    return healthTimeout;
  }

  public void setHealthTimeout(Duration healthTimeout) {
    this.healthTimeout = healthTimeout;
  }

  public String getKeyPrefix() {
    return keyPrefix;
  }

  public void setKeyPrefix(String keyPrefix) {
    this.keyPrefix = keyPrefix;
  }
}
