package io.hostloom.springboot.backend.etcd;

import io.hostloom.etcd.EtcdLockBackend;

/**
 * Changes the {@link EtcdLockBackend.Builder} the etcd backend auto-configuration has filled from
 * {@code hostloom.etcd.*}, before it builds: every builder option (a jetcd client of your own with
 * TLS or auth, the release signal) without redefining the backend bean. Every customizer bean is
 * applied, in {@code @Order} order; a customizer's exception fails start-up.
 */
@FunctionalInterface
public interface EtcdLockBackendBuilderCustomizer {
  void customize(EtcdLockBackend.Builder builder);
}
