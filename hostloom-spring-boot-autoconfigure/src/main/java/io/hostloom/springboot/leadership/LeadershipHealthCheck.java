package io.hostloom.springboot.leadership;

import io.hostloom.leadership.LeaderElection;
import io.hostloom.leadership.LeaderStatus;
import io.hostloom.leadership.LeadershipDescription;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One role's health from the elector's probe (no backend call), in no Spring Boot generation's
 * types so that the Boot 4 and Boot 3.5 starters share it: {@code UP} with {@code leader} or {@code
 * follower}, {@code DOWN} when the backend could not be reached at the last attempt or renewal
 * ({@code backend down}), {@code OUT_OF_SERVICE} when the elector is not running. Never throws.
 */
public final class LeadershipHealthCheck {
  /** The health status names of Spring Boot's {@code Status}. */
  public enum State {
    UP,
    DOWN,
    OUT_OF_SERVICE
  }

  /** A check's answer: the state and the details to show. */
  public record Result(State state, Map<String, Object> details) {
    public Result {
      details = Map.copyOf(details);
    }
  }

  private final LeaderElection election;

  public LeadershipHealthCheck(LeaderElection election) {
    this.election = election;
  }

  public Result check() {
    try {
      return judge(election.describe());
    } catch (RuntimeException e) {
      return new Result(
          State.DOWN,
          Map.of("role", election.role(), "status", "check failed", "error", e.toString()));
    }
  }

  private static Result judge(LeadershipDescription d) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("role", d.role());
    State state;
    if (d.status() == LeaderStatus.NOT_STARTED || d.status() == LeaderStatus.STOPPED) {
      state = State.OUT_OF_SERVICE;
      details.put("status", d.status().name().toLowerCase(Locale.ROOT));
    } else if (!d.backendReachable()) {
      state = State.DOWN;
      details.put("status", "backend down");
    } else if (d.status() == LeaderStatus.LEADER) {
      state = State.UP;
      details.put("status", "leader");
      details.put("term", d.term());
    } else {
      state = State.UP;
      details.put("status", "follower");
    }
    return new Result(state, details);
  }
}
