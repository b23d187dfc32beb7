package io.hostloom.integration;

import org.springframework.integration.support.locks.DistributedLock;

/**
 * The {@link HostLoomLock} a registry hands out when Spring Integration 7's {@link DistributedLock}
 * is on the classpath (a separate class so that 6.5, which lacks the interface, never loads it).
 */
final class HostLoomDistributedLock extends HostLoomLock implements DistributedLock {
  private HostLoomDistributedLock(HostLoomLockRegistry registry, String key) {
    super(registry, key);
  }

  /**
   * Creates one. Typed {@link HostLoomLock} so that the registry's bytecode never names this class
   * in a type check: the verifier would load it, and with it the interface 6.5 lacks.
   */
  static HostLoomLock create(HostLoomLockRegistry registry, String key) {
    return new HostLoomDistributedLock(registry, key);
  }
}
