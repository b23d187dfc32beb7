package io.hostloom.jdbc;

import io.hostloom.locking.spi.support.BackendArguments;
import java.time.Duration;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The options every compatibility-layout backend's builder has; each setter checks its value.
 *
 * @param <B> the builder itself
 */
abstract class LayoutBuilder<B extends LayoutBuilder<B>> {
  final DataSource dataSource;
  String keyPrefix = "";
  Duration commandTimeout = JdbcLockBackend.DEFAULT_COMMAND_TIMEOUT;
  int threads = JdbcLockBackend.DEFAULT_EXECUTOR_THREADS;

  LayoutBuilder(DataSource dataSource) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
  }

  abstract B self();

  /**
   * What precedes the old library's lock name in every backend key; default {@code ""} (the key is
   * the name). Keys without it are rejected with {@link IllegalArgumentException}.
   */
  public B keyPrefix(String keyPrefix) {
    this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix");
    return self();
  }

  /** Bound on one whole operation; default {@link JdbcLockBackend#DEFAULT_COMMAND_TIMEOUT}. */
  public B commandTimeout(Duration commandTimeout) {
    this.commandTimeout = BackendArguments.positive("commandTimeout", commandTimeout);
    return self();
  }

  /** Worker threads, 1 to 1024; default {@link JdbcLockBackend#DEFAULT_EXECUTOR_THREADS}. */
  public B executorThreads(int threads) {
    if (threads < 1 || threads > 1024) {
      throw new IllegalArgumentException(
          "executorThreads must be between 1 and 1024 but was " + threads);
    }
    this.threads = threads;
    return self();
  }

  /** The shared part of the backend, over {@code layout}. */
  LayoutBackendCore core(String name, RowLayout layout) {
    return new LayoutBackendCore(name, dataSource, layout, commandTimeout, threads);
  }
}
