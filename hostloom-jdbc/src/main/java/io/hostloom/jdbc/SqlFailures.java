package io.hostloom.jdbc;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.LockBackendException;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;

/**
 * Maps a failed call to a {@link LockFailureKind}. The rule is decided by <em>where</em> the call
 * failed, because only that says whether the statement can have been applied:
 *
 * <ol>
 *   <li>Before the statement was handed to the driver's execute (no worker free, no pooled
 *       connection, connection refused, authentication failed, the connection already known
 *       closed): {@code UNAVAILABLE}, whatever the SQLState.
 *   <li>After execute was called: {@code TIMEOUT} for a statement cancelled by its timeout ({@code
 *       57014}, {@link SQLTimeoutException}) and for a connection lost mid-call (SQLState class
 *       {@code 08} except {@code 08003}, {@link SQLTransientConnectionException}, server shutdown
 *       {@code 57P01}/{@code 57P02}): the statement may have committed before the connection went
 *       away. {@code 08003} ("connection does not exist") is raised by the driver and by HikariCP
 *       before anything is sent, so it stays {@code UNAVAILABLE}. MariaDB: {@code 70100}
 *       (interrupted) is {@code TIMEOUT}; a deadlock victim ({@code 40001}, error 1213) was rolled
 *       back, so it is {@code UNAVAILABLE}. Anything else is {@code OTHER}.
 * </ol>
 */
final class SqlFailures {
  /** MariaDB's ER_LOCK_DEADLOCK: the victim's statement was rolled back entirely. */
  private static final int MARIADB_DEADLOCK = 1213;

  private SqlFailures() {}

  /** The statement was never sent. */
  static LockBackendException notSent(String op, Throwable cause) {
    return LockBackendException.unavailable(
        op + " failed before the statement was sent (" + describe(cause) + ")", cause);
  }

  /** The call's deadline passed before the statement was sent. */
  static LockBackendException notSentInTime(String op, Duration timeout) {
    return LockBackendException.unavailable(
        op + " was not sent within " + timeout + " (no free worker or pooled connection)", null);
  }

  /** The call's deadline passed while the statement was in flight. */
  static LockBackendException noAnswerInTime(String op, Duration timeout) {
    return LockBackendException.timeout(
        op + " got no answer within " + timeout + "; it may have been applied", null);
  }

  /** The statement was handed to the driver and then failed. */
  static LockBackendException afterSend(String op, Throwable cause) {
    return switch (kindAfterSend(cause)) {
      case UNAVAILABLE -> notSent(op, cause);
      case TIMEOUT ->
          LockBackendException.timeout(
              op + " got no answer (" + describe(cause) + "); it may have been applied", cause);
      case OTHER -> LockBackendException.other(op + " failed (" + describe(cause) + ")", cause);
    };
  }

  static LockFailureKind kindAfterSend(Throwable cause) {
    if (cause instanceof SQLTimeoutException) {
      return LockFailureKind.TIMEOUT;
    }
    if (!(cause instanceof SQLException sql)) {
      return LockFailureKind.OTHER;
    }
    String state = sql.getSQLState();
    if ("08003".equals(state)) {
      return LockFailureKind.UNAVAILABLE;
    }
    if ("40001".equals(state) && sql.getErrorCode() == MARIADB_DEADLOCK) {
      return LockFailureKind.UNAVAILABLE; // MariaDB rolled the statement back: not applied
    }
    if ("70100".equals(state)) {
      return LockFailureKind.TIMEOUT; // MariaDB: interrupted (max_statement_time, KILL QUERY)
    }
    if (cause instanceof SQLTransientConnectionException
        || "57014".equals(state)
        || "57P01".equals(state)
        || "57P02".equals(state)
        || (state != null && state.startsWith("08"))) {
      return LockFailureKind.TIMEOUT;
    }
    return LockFailureKind.OTHER;
  }

  /** Exception class and SQLState only: driver messages may quote endpoints or values. */
  static String describe(Throwable cause) {
    if (cause == null) {
      return "no cause";
    }
    String state = cause instanceof SQLException sql ? sql.getSQLState() : null;
    return cause.getClass().getSimpleName() + (state == null ? "" : ", SQLState " + state);
  }
}
