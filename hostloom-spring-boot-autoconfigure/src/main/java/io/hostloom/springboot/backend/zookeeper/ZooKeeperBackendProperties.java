package io.hostloom.springboot.backend.zookeeper;

import io.hostloom.zookeeper.ZooKeeperLockBackend;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The ZooKeeper backend's settings (hostloom.backend=zookeeper, module
 * io.hostloom:hostloom-zookeeper). Defaults are the backend's {@code DEFAULT_*} constants; every
 * other builder option is reachable through a {@link ZooKeeperLockBackendBuilderCustomizer} bean.
 */
@ConfigurationProperties("hostloom.zookeeper")
public class ZooKeeperBackendProperties {
  /** The ensemble: host:port[,host:port...][/chroot] (a chroot must exist). Required. */
  private String connectString;

  /** The znode under which the backend keeps locks/ and clock (created on first use). */
  private String rootPath = ZooKeeperLockBackend.DEFAULT_ROOT;

  /** The session timeout asked for; leases do not depend on it, watches do. */
  private Duration sessionTimeout = ZooKeeperLockBackend.DEFAULT_SESSION_TIMEOUT;

  /** The bound of every lock operation, waiting for a connection included. */
  private Duration commandTimeout = ZooKeeperLockBackend.DEFAULT_COMMAND_TIMEOUT;

  /** The bound of the health probe's exists request. */
  private Duration healthTimeout = ZooKeeperLockBackend.DEFAULT_HEALTH_TIMEOUT;

  /** Whether waiters are woken by a watch on releases (one persistent watch per session). */
  private boolean releaseSignal = true;

  public String getConnectString() {
    return connectString;
  }

  public void setConnectString(String connectString) {
    this.connectString = connectString;
  }

  public String getRootPath() {
    return rootPath;
  }

  public void setRootPath(String rootPath) {
    this.rootPath = rootPath;
  }

  public Duration getSessionTimeout() {
    return sessionTimeout;
  }

  public void setSessionTimeout(Duration sessionTimeout) {
    this.sessionTimeout = sessionTimeout;
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

  public boolean isReleaseSignal() {
    return releaseSignal;
  }

  public void setReleaseSignal(boolean releaseSignal) {
    this.releaseSignal = releaseSignal;
  }
}
