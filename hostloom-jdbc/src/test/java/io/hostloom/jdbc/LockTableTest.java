package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.testkit.TestTiming;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Schema and table names: validation, quoting, the shipped DDL and creating it at start-up. */
class LockTableTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "1locks",
        "lock-table",
        "locks\"; DROP TABLE x; --",
        "public.locks",
        " locks",
        "loc ks",
        "läcks",
        "a123456789012345678901234567890123456789012345678"
      })
  void badNamesAreRejectedWithAClearMessage(String name) {
    assertThatThrownBy(() -> LockTable.of(name, "locks"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "schema must be a plain identifier matching " + LockTable.IDENTIFIER_PATTERN)
        .hasMessageContaining("but was \"");
    assertThatThrownBy(() -> LockTable.of("public", name))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("table must be a plain identifier");
    assertThatThrownBy(() -> JdbcLockBackend.builder(TestDatabase.pool()).table(name))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("table must be");
    assertThatThrownBy(() -> JdbcLockBackend.builder(TestDatabase.pool()).schema(name))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("schema must be");
  }

  @Test
  void nullNamesAreRejected() {
    assertThatThrownBy(() -> LockTable.of(null, "t"))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("schema");
    assertThatThrownBy(() -> LockTable.of("s", null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("table");
  }

  @Test
  void namesAreQuotedAndDerivedNamesFit() {
    LockTable t = LockTable.of("Tenant_A", "select");
    assertThat(t.qualifiedTable()).isEqualTo("\"Tenant_A\".\"select\"");
    assertThat(t.qualifiedSequence()).isEqualTo("\"Tenant_A\".\"select_fence_seq\"");
    String longest = "t".repeat(48);
    assertThat((longest + "_fence_seq").length()).isLessThanOrEqualTo(63);
    assertThat((longest + "_view_entries").length()).isLessThanOrEqualTo(63);
    assertThat((longest + "_view_acquire").length()).isLessThanOrEqualTo(63);
    assertThat(LockTable.of(longest, longest).notificationChannel())
        .matches("hostloom_[0-9a-f]{16}");
    assertThat(LockTable.of("a", "t").notificationChannel())
        .isNotEqualTo(LockTable.of("b", "t").notificationChannel());
  }

  @Test
  void ddlFillsThePlaceholdersOfTheShippedScript() {
    String ddl = LockTable.of("locks_schema", "my_locks").ddl();
    assertThat(ddl)
        .doesNotContain("${")
        .contains("\"locks_schema\".\"my_locks\"", "\"locks_schema\".\"my_locks_fence_seq\"");
    List<String> statements = LockTable.defaults().ddlStatements();
    assertThat(statements)
        .hasSize(5)
        .allSatisfy(s -> assertThat(s).startsWith("CREATE").doesNotContain("--"));
    assertThat(statements.subList(0, 4)).allSatisfy(s -> assertThat(s).doesNotContain(";"));
    assertThat(statements.get(4))
        .as("the views' acquire function, its body one dollar-quoted string")
        .startsWith("CREATE OR REPLACE FUNCTION \"public\".\"hostloom_locks_view_acquire\"")
        .endsWith("$$");
  }

  @Test
  void mixedCaseSchemaAndTableAreCreatedAndKeptApart() throws SQLException {
    PostgresServer server = TestDatabase.server();
    server.execute(TestDatabase.NAME, "CREATE SCHEMA IF NOT EXISTS \"Tenant_A\"");
    try (JdbcLockBackend tenant =
            TestDatabase.backend()
                .schema("Tenant_A")
                .table("MyLocks")
                .createTableIfMissing(true)
                .build();
        JdbcLockBackend common = TestDatabase.backend().build()) {
      String key = "same-key-" + System.nanoTime();
      assertThat(
              TestTiming.get(tenant.acquire(key, "a", "", Duration.ofMinutes(1)), WAIT).granted())
          .isTrue();
      assertThat(
              TestTiming.get(common.acquire(key, "b", "", Duration.ofMinutes(1)), WAIT).granted())
          .as("another table is another lock space")
          .isTrue();
    }
    try (Connection c = server.connect(TestDatabase.NAME);
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT count(*) FROM information_schema.tables"
                    + " WHERE table_schema = 'Tenant_A' AND table_name = 'MyLocks'")) {
      r.next();
      assertThat(r.getInt(1)).as("the exact, case-sensitive names").isEqualTo(1);
    }
  }

  @Test
  void concurrentStartersCreateTheTableOnce() throws Exception {
    String table = "created_" + System.nanoTime();
    int starters = 4;
    CyclicBarrier barrier = new CyclicBarrier(starters);
    List<CompletableFuture<JdbcLockBackend>> started = new ArrayList<>();
    for (int i = 0; i < starters; i++) {
      started.add(
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  barrier.await();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
                return TestDatabase.backend().table(table).createTableIfMissing(true).build();
              }));
    }
    for (CompletableFuture<JdbcLockBackend> f : started) {
      try (JdbcLockBackend b = TestTiming.get(f, WAIT)) {
        assertThat(TestTiming.get(b.checkHealth(), WAIT).healthy()).isTrue();
      }
    }
  }

  @Test
  void aMissingTableIsReportedNotCreated() {
    try (JdbcLockBackend b = TestDatabase.backend().table("never_created").build()) {
      assertThat(TestTiming.get(b.checkHealth(), WAIT).healthy()).isFalse();
      assertThat(TestTiming.get(b.checkHealth(), WAIT).description()).contains("OTHER", "42P01");
      assertThatThrownBy(() -> TestTiming.get(b.read("k"), WAIT))
          .hasCauseInstanceOf(io.hostloom.locking.spi.LockBackendException.class)
          .cause()
          .hasMessageContaining("42P01");
    }
  }
}
