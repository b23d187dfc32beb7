package io.hostloom.springboot.backend.postgres;

import io.hostloom.jdbc.JdbcLockBackend;

/**
 * Changes the {@link JdbcLockBackend.Builder} the PostgreSQL backend auto-configuration has filled
 * from {@code hostloom.postgres.*}, before it builds: release notifications (LISTEN/NOTIFY), a
 * listener DataSource, an executor of your own, without redefining the backend bean. Every
 * customizer bean is applied, in {@code @Order} order; a customizer's exception fails start-up.
 */
@FunctionalInterface
public interface JdbcLockBackendBuilderCustomizer {
  void customize(JdbcLockBackend.Builder builder);
}
