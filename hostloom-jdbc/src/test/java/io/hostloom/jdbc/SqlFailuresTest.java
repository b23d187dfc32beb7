package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.LockFailureKind;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The mapping rule of {@link SqlFailures}, case by case. */
class SqlFailuresTest {
  @ParameterizedTest(name = "after send, SQLState {0} -> {1}")
  @CsvSource({
    "57014, TIMEOUT", // statement timeout / cancel
    "08006, TIMEOUT", // connection failure mid-call: may have committed
    "08001, TIMEOUT",
    "08P01, TIMEOUT", // protocol violation: connection gone
    "57P01, TIMEOUT", // admin shutdown while the statement ran
    "57P02, TIMEOUT", // crash shutdown
    "08003, UNAVAILABLE", // connection already closed: raised before sending
    "42P01, OTHER", // table missing
    "40001, OTHER",
    "23505, OTHER",
    "XX000, OTHER"
  })
  void afterSendBySqlState(String state, LockFailureKind kind) {
    assertThat(SqlFailures.kindAfterSend(new SQLException("x", state))).isEqualTo(kind);
    assertThat(SqlFailures.afterSend("acquire", new SQLException("x", state)).kind())
        .isEqualTo(kind);
  }

  /** MariaDB: a deadlock victim was rolled back (not applied); an interrupted statement may not. */
  @Test
  void afterSendMariaDb() {
    assertThat(SqlFailures.kindAfterSend(new SQLException("deadlock", "40001", 1213)))
        .isEqualTo(LockFailureKind.UNAVAILABLE);
    assertThat(SqlFailures.kindAfterSend(new SQLException("serialization", "40001", 0)))
        .isEqualTo(LockFailureKind.OTHER);
    assertThat(SqlFailures.kindAfterSend(new SQLException("max_statement_time", "70100", 1969)))
        .isEqualTo(LockFailureKind.TIMEOUT);
    assertThat(SqlFailures.kindAfterSend(new SQLException("KILL QUERY", "70100", 1317)))
        .isEqualTo(LockFailureKind.TIMEOUT);
    assertThat(SqlFailures.kindAfterSend(new SQLException("link failure", "08000", 0)))
        .isEqualTo(LockFailureKind.TIMEOUT);
  }

  @Test
  void afterSendByExceptionType() {
    assertThat(SqlFailures.kindAfterSend(new SQLTimeoutException("t")))
        .isEqualTo(LockFailureKind.TIMEOUT);
    assertThat(SqlFailures.kindAfterSend(new SQLTransientConnectionException("t")))
        .isEqualTo(LockFailureKind.TIMEOUT);
    assertThat(SqlFailures.kindAfterSend(new SQLException("no state")))
        .isEqualTo(LockFailureKind.OTHER);
    assertThat(SqlFailures.kindAfterSend(new IllegalStateException("decode")))
        .isEqualTo(LockFailureKind.OTHER);
  }

  @Test
  void beforeSendIsAlwaysUnavailable() {
    assertThat(
            SqlFailures.notSent("acquire", new SQLTransientConnectionException("pool timeout"))
                .kind())
        .isEqualTo(LockFailureKind.UNAVAILABLE);
    assertThat(
            SqlFailures.notSent(
                    "acquire", new SQLNonTransientConnectionException("refused", "08001"))
                .kind())
        .isEqualTo(LockFailureKind.UNAVAILABLE);
    assertThat(SqlFailures.notSent("acquire", new SQLException("auth", "28P01")).kind())
        .isEqualTo(LockFailureKind.UNAVAILABLE);
  }

  @Test
  void messagesNameOperationAndStateButNotDriverText() {
    SQLException secret = new SQLException("password=hunter2 at db.internal:5432", "08006");
    String message = SqlFailures.afterSend("release", secret).getMessage();
    assertThat(message)
        .contains("release", "08006", "may have been applied")
        .doesNotContain("hunter2", "db.internal");
  }
}
