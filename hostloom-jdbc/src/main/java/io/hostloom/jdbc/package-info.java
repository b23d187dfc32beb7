/**
 * The PostgreSQL lock backend over plain JDBC: {@link io.hostloom.jdbc.JdbcLockBackend}, its table
 * ({@link io.hostloom.jdbc.LockTable}) and the optional release wake-up capability ({@link
 * io.hostloom.locking.spi.ReleaseSignal}).
 */
package io.hostloom.jdbc;
