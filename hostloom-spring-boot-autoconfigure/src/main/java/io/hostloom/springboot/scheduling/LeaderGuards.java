package io.hostloom.springboot.scheduling;

import io.hostloom.locking.time.LockClock;
import io.hostloom.scheduling.LeaderScheduleGuard;
import io.hostloom.scheduling.ScheduleGuard;
import io.hostloom.scheduling.ScheduleListener;
import io.hostloom.scheduling.ScheduleOptions;
import io.hostloom.springboot.leadership.LeaderElectors;
import org.springframework.beans.factory.BeanFactory;

/**
 * Leader-only guards for the registry. Its own class so that leadership types load only when a
 * schedule names a leader role (and after {@code leadershipPresent} said they are there).
 */
final class LeaderGuards {
  private LeaderGuards() {}

  /** Why {@code role} cannot guard a schedule, or {@code null} when it can. */
  static String problem(BeanFactory beans, boolean leadershipPresent, String role) {
    if (!leadershipPresent) {
      return "leaderRole '" + role + "' needs io.hostloom:hostloom-leadership on the class path";
    }
    LeaderElectors electors = beans.getBeanProvider(LeaderElectors.class).getIfAvailable();
    if (electors == null) {
      return "leaderRole '"
          + role
          + "' needs a LeaderElectors bean (a DistributedLock and hostloom.leadership.roles."
          + role
          + ".*)";
    }
    if (!electors.all().containsKey(role)) {
      return "leaderRole '"
          + role
          + "' is not configured (hostloom.leadership.roles."
          + role
          + ".*, enabled); configured roles: "
          + electors.all().keySet();
    }
    return null;
  }

  static ScheduleGuard build(
      BeanFactory beans,
      boolean leadershipPresent,
      String role,
      ScheduleOptions options,
      LockClock clock,
      ScheduleListener listener) {
    String problem = problem(beans, leadershipPresent, role);
    if (problem != null) {
      throw new IllegalStateException("schedule '" + options.name() + "': " + problem);
    }
    return LeaderScheduleGuard.builder(beans.getBean(LeaderElectors.class).get(role), options)
        .clock(clock)
        .listener(listener)
        .build();
  }
}
