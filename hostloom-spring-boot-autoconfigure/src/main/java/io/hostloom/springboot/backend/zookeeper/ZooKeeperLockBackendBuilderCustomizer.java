package io.hostloom.springboot.backend.zookeeper;

import io.hostloom.zookeeper.ZooKeeperLockBackend;

/**
 * Changes the {@link ZooKeeperLockBackend.Builder} the ZooKeeper backend auto-configuration has
 * filled from {@code hostloom.zookeeper.*}, before it builds. Every customizer bean is applied, in
 * {@code @Order} order; a customizer's exception fails start-up.
 */
@FunctionalInterface
public interface ZooKeeperLockBackendBuilderCustomizer {
  void customize(ZooKeeperLockBackend.Builder builder);
}
