package io.hostloom.springboot.backend.postgres;

import io.hostloom.jdbc.JdbcLockBackend;
import io.hostloom.jdbc.LockTable;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The PostgreSQL backend's settings (hostloom.backend=postgres, module io.hostloom:hostloom-jdbc),
 * over the application's DataSource. Defaults are the backend's {@code DEFAULT_*} constants; every
 * other builder option (release notifications, a listener DataSource, an executor) is reachable
 * through a {@link JdbcLockBackendBuilderCustomizer} bean.
 */
@ConfigurationProperties("hostloom.postgres")
public class PostgresBackendProperties {
  /** The schema of the lock table; it must exist. */
  private String schema = LockTable.DEFAULT_SCHEMA;

  /** The lock table. */
  private String table = LockTable.DEFAULT_TABLE;

  /**
   * Whether the table (and its sequence) is created at start-up when missing; off by default: ship
   * the DDL with your migrations.
   */
  private boolean createTable = false;

  /** The bound of every statement, from submission to answer. */
  private Duration commandTimeout = JdbcLockBackend.DEFAULT_COMMAND_TIMEOUT;

  /** The threads that run the blocking JDBC calls (at most this many connections at once). */
  private int executorThreads = JdbcLockBackend.DEFAULT_EXECUTOR_THREADS;

  /** The most calls waiting for a thread; more are refused as unavailable. */
  private int maxQueuedCalls = JdbcLockBackend.DEFAULT_MAX_QUEUED_CALLS;

  public String getSchema() {
    return schema;
  }

  public void setSchema(String schema) {
    this.schema = schema;
  }

  public String getTable() {
    return table;
  }

  public void setTable(String table) {
    this.table = table;
  }

  public boolean isCreateTable() {
    return createTable;
  }

  public void setCreateTable(boolean createTable) {
    this.createTable = createTable;
  }

  public Duration getCommandTimeout() {
    return commandTimeout;
  }

  public void setCommandTimeout(Duration commandTimeout) {
    this.commandTimeout = commandTimeout;
  }

  public int getExecutorThreads() {
    return executorThreads;
  }

  public void setExecutorThreads(int executorThreads) {
    this.executorThreads = executorThreads;
  }

  public int getMaxQueuedCalls() {
    return maxQueuedCalls;
  }

  public void setMaxQueuedCalls(int maxQueuedCalls) {
    this.maxQueuedCalls = maxQueuedCalls;
  }
}
