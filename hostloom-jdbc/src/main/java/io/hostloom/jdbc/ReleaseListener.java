package io.hostloom.jdbc;

import io.hostloom.locking.spi.support.ReleaseWaitRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds one connection in {@code LISTEN} on the table's channel and wakes the registry's waits of a
 * key when a release announces it. The only class that needs the PostgreSQL driver's API ({@link
 * PGConnection#getNotifications(int)}), so it is loaded only when notifications are on.
 *
 * <p>The connection comes from a data source of its own (never the operations pool by default, see
 * {@link JdbcLockBackend.Builder#listenerDataSource}) and goes back to it only after {@code
 * UNLISTEN *}, or aborted when that fails, so no pooled session is ever handed out still listening.
 *
 * <p>A notification can be missed while the connection is down; on every (re)connect all current
 * waiters are therefore woken, and they retry their acquisition. Between connects the waiters' own
 * {@code maxWait} is the polling fallback.
 */
final class ReleaseListener implements ReleaseWaits {
  private static final Logger log = LoggerFactory.getLogger(ReleaseListener.class);

  /** How long one {@code getNotifications} call blocks; bounds how long close() waits. */
  private static final int POLL_MILLIS = 100;

  /** A listening connection idle this long is checked with a query (detects a dead peer). */
  private static final long KEEPALIVE_NANOS = Duration.ofSeconds(10).toNanos();

  private static final long MAX_BACKOFF_NANOS = Duration.ofSeconds(5).toNanos();

  private final DataSource dataSource;
  private final String channel;
  private final int queryTimeoutSeconds;
  private final ReleaseWaitRegistry waiters;
  private final Thread thread;
  private volatile boolean closed;
  private volatile boolean listening;

  ReleaseListener(
      DataSource dataSource, String channel, Duration timeout, ReleaseWaitRegistry waiters) {
    this.dataSource = dataSource;
    this.channel = channel;
    this.queryTimeoutSeconds = (int) Math.max(1, Math.min(3600, (timeout.toMillis() + 999) / 1000));
    this.waiters = waiters;
    this.thread = new Thread(this::loop, "hostloom-jdbc-listener");
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public boolean isListening() {
    return listening;
  }

  private void wake(String storedKey) {
    waiters.wakeAll(storedKey);
  }

  private void wakeAll() {
    waiters.wakeEveryKey();
  }

  private void loop() {
    long backoff = Duration.ofMillis(100).toNanos();
    while (!closed) {
      Connection c = null;
      boolean listened = false;
      try {
        c = dataSource.getConnection();
        if (!c.getAutoCommit()) {
          c.setAutoCommit(true);
        }
        PGConnection pg = c.unwrap(PGConnection.class);
        listened = true; // from here on the session may be listening, even if LISTEN throws
        execute(c, "LISTEN \"" + channel + "\""); // channel is hex and letters: see LockTable
        listening = true;
        backoff = Duration.ofMillis(100).toNanos();
        wakeAll(); // releases while not listening were missed
        long lastHeard = System.nanoTime();
        while (!closed) {
          PGNotification[] received = pg.getNotifications(POLL_MILLIS);
          if (received != null && received.length > 0) {
            lastHeard = System.nanoTime();
            for (PGNotification n : received) {
              if (channel.equals(n.getName())) {
                wake(n.getParameter());
              }
            }
          } else if (System.nanoTime() - lastHeard > KEEPALIVE_NANOS) {
            execute(c, "SELECT 1");
            lastHeard = System.nanoTime();
          }
        }
      } catch (SQLException | RuntimeException e) {
        if (!closed) {
          log.debug("release listener disconnected ({}); reconnecting", SqlFailures.describe(e));
        }
      } finally {
        listening = false;
        if (c != null) {
          giveBack(c, listened);
        }
      }
      if (!closed) {
        wakeAll(); // waiters fall back to polling now rather than at their maxWait
        LockSupport.parkNanos(this, backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_NANOS);
      }
    }
  }

  /**
   * Returns {@code c} to its data source never still listening: a pooled session that kept LISTEN
   * would queue notifications for whoever borrows it next. {@code UNLISTEN *}, or when that fails
   * (the connection is broken or the statement timed out) abort the connection, which makes a pool
   * discard it instead of handing it out again.
   */
  private void giveBack(Connection c, boolean listened) {
    if (listened) {
      try {
        execute(c, "UNLISTEN *");
      } catch (SQLException | RuntimeException e) {
        log.debug(
            "release listener: UNLISTEN failed ({}); aborting the connection",
            SqlFailures.describe(e));
        try {
          c.abort(Runnable::run);
        } catch (SQLException | RuntimeException abortFailed) {
          log.debug("release listener: abort failed ({})", SqlFailures.describe(abortFailed));
        }
      }
    }
    try {
      c.close();
    } catch (SQLException | RuntimeException e) {
      log.debug("release listener: close failed ({})", SqlFailures.describe(e));
    }
  }

  private void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.setQueryTimeout(queryTimeoutSeconds);
      s.execute(sql);
    }
  }

  /** Stops listening and waits briefly for the thread (the backend ends the waits). */
  @Override
  public void close() {
    closed = true;
    LockSupport.unpark(thread);
    try {
      thread.join(POLL_MILLIS * 4L);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
