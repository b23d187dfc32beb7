package io.hostloom.testkit.capability;

import java.util.List;

/**
 * A backend's own count of the round trips it made, read where they happen: the server's statistics
 * (Redis {@code INFO commandstats}, PostgreSQL {@code pg_stat_statements}) or the wire (an HTTP
 * pipeline policy, a client's command listener). The hook {@link RoundTripBudgetSuite} needs from
 * each backend; the assertions are the suite's.
 */
public interface RoundTripCounter {

  /** What is counted, for failure messages, e.g. {@code "server commandstats"}. */
  String name();

  /** Starts a new count. */
  void reset();

  /**
   * The round trips since the last {@link #reset()}, each named by what was sent (a command, a
   * statement, a REST operation), in order where the counter knows it.
   */
  List<String> roundTrips();
}
