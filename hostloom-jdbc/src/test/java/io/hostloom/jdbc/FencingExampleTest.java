package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.testkit.TestTiming;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The README's example: a fencing token guards the user's own write, so a holder whose lease ran
 * out while it was paused cannot overwrite the work of the holder after it.
 */
class FencingExampleTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  /** The README's guarded write: applies only when no newer token has written before. */
  private static final String GUARDED_UPDATE =
      "UPDATE documents SET body = ?, fence = ? WHERE id = ? AND fence < ?";

  @Test
  void aStaleHoldersWriteIsRejectedByTheToken() throws SQLException {
    TestDatabase.server()
        .execute(
            TestDatabase.NAME,
            "CREATE TABLE IF NOT EXISTS documents"
                + " (id text PRIMARY KEY, body text NOT NULL, fence bigint NOT NULL DEFAULT 0)");
    String doc = "doc-" + UUID.randomUUID();
    String key = "documents/" + doc;
    try (JdbcLockBackend backend = TestDatabase.backend().build();
        Connection db = TestDatabase.pool().getConnection()) {
      try (Statement s = db.createStatement()) {
        s.execute("INSERT INTO documents (id, body) VALUES ('" + doc + "', 'original')");
      }

      // A holds a short lease, then "pauses" (GC, network) past its end
      long tokenA =
          TestTiming.get(backend.acquire(key, "A", "", Duration.ofMillis(200)), WAIT)
              .fencingToken();
      // B acquires once A's lease is over, and writes with its newer token
      AtomicLong tokenOfB = new AtomicLong();
      TestTiming.await(
          "A's lease over, B granted",
          () -> {
            AcquireOutcome o =
                TestTiming.get(backend.acquire(key, "B", "", Duration.ofMinutes(1)), WAIT);
            tokenOfB.set(o.fencingToken());
            return o.granted();
          },
          WAIT);
      long tokenB = tokenOfB.get();
      assertThat(tokenB).isGreaterThan(tokenA);
      assertThat(guardedWrite(db, doc, "written by B", tokenB)).isEqualTo(1);

      // A wakes up and writes with its old token: rejected, B's work stays
      assertThat(guardedWrite(db, doc, "written by A", tokenA)).isZero();
      try (Statement s = db.createStatement();
          ResultSet r =
              s.executeQuery("SELECT body, fence FROM documents WHERE id = '" + doc + "'")) {
        r.next();
        assertThat(r.getString(1)).isEqualTo("written by B");
        assertThat(r.getLong(2)).isEqualTo(tokenB);
      }
    }
  }

  private static int guardedWrite(Connection db, String doc, String body, long token)
      throws SQLException {
    try (PreparedStatement s = db.prepareStatement(GUARDED_UPDATE)) {
      s.setString(1, body);
      s.setLong(2, token);
      s.setString(3, doc);
      s.setLong(4, token);
      return s.executeUpdate();
    }
  }
}
