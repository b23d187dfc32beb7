package io.hostloom.integration;

import org.springframework.integration.support.locks.DistributedLock;

/**
 * The {@link HostLoomLock} a registry hands out when Spring Integration 7's {@link DistributedLock}
 * is on the classpath (a separate class so that 6.5, which lacks the interface, never loads it).
 */
final class HostLoomDistributedLock extends HostLoomLock implements DistributedLock {
  HostLoomDistributedLock(HostLoomLockRegistry registry, String key) {
    super(registry, key);
  }
}
