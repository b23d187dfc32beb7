package io.hostloom.springboot.scheduling;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.time.LockClock;
import io.hostloom.scheduling.RunResult;
import io.hostloom.scheduling.ScheduleGuard;
import io.hostloom.scheduling.ScheduleListener;
import io.hostloom.scheduling.ScheduleOptions;
import io.hostloom.scheduling.ScheduleState;
import io.hostloom.scheduling.ScheduledJob;
import io.hostloom.springboot.scheduling.ExclusiveScheduleResolver.Resolved;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * One {@link ScheduleGuard} per schedule name in the application, over the application's {@link
 * DistributedLock} (looked up on first use, so post-processors that create guards do not pull the
 * lock in early), or for a leader-only schedule over the starter's {@code LeaderElectors}. Shared
 * by the {@code @ExclusiveSchedule} proxy and {@link ExclusiveTaskScheduler}. Once every singleton
 * exists it checks that each annotated leader role has an elector, failing start-up naming the
 * method otherwise.
 */
public final class ExclusiveScheduleRegistry implements SmartInitializingSingleton {
  static final String LEADERSHIP_CLASS = "io.hostloom.leadership.LeaderElection";

  private final ObjectProvider<DistributedLock> lock;
  private final ObjectProvider<LockClock> clock;
  private final ObjectProvider<ScheduleListener> listener;
  private final BeanFactory beans;
  private final Map<String, ScheduleGuard> guards = new ConcurrentHashMap<>();
  private final List<Resolved> leaderSchedules = new CopyOnWriteArrayList<>();
  private volatile boolean checked;

  ExclusiveScheduleRegistry(
      ObjectProvider<DistributedLock> lock,
      ObjectProvider<LockClock> clock,
      ObjectProvider<ScheduleListener> listener,
      BeanFactory beans) {
    this.lock = lock;
    this.clock = clock;
    this.listener = listener;
    this.beans = beans;
  }

  /**
   * Runs {@code job} as one occurrence of {@code options.name()} and rethrows what it failed with
   * ({@link RunResult#throwIfFailed()}).
   */
  public RunResult run(ScheduleOptions options, ScheduledJob job) {
    return guard(options).run(job).throwIfFailed();
  }

  /**
   * {@link #run(ScheduleOptions, ScheduledJob)} on the current leader of {@code role} only (a
   * follower's run is skipped).
   *
   * @throws IllegalStateException when {@code hostloom-leadership} is absent or the role has no
   *     elector
   */
  public RunResult runOnLeader(String role, ScheduleOptions options, ScheduledJob job) {
    return leaderGuard(role, options).run(job).throwIfFailed();
  }

  RunResult run(Resolved resolved, ScheduledJob job) {
    return resolved.leaderRole().isEmpty()
        ? run(resolved.options(), job)
        : runOnLeader(resolved.leaderRole(), resolved.options(), job);
  }

  /** The guard of {@code options.name()}; the first options registered for a name win. */
  public ScheduleGuard guard(ScheduleOptions options) {
    return guards.computeIfAbsent(
        options.name(),
        n ->
            ScheduleGuard.builder(lock.getObject(), options)
                .clock(clock.getIfAvailable(LockClock::system))
                .listener(listener.getIfUnique(() -> ScheduleListener.NO_OP))
                .build());
  }

  /**
   * The leader-only guard of {@code options.name()} on the elector of {@code role}; the first guard
   * registered for a name wins (whatever its kind).
   *
   * @throws IllegalStateException when {@code hostloom-leadership} is absent or the role has no
   *     elector
   */
  public ScheduleGuard leaderGuard(String role, ScheduleOptions options) {
    Objects.requireNonNull(role, "role");
    return guards.computeIfAbsent(
        options.name(),
        n ->
            LeaderGuards.build(
                beans,
                leadershipPresent(),
                role,
                options,
                clock.getIfAvailable(LockClock::system),
                listener.getIfUnique(() -> ScheduleListener.NO_OP)));
  }

  /** The state of every schedule that ran at least once through this registry. */
  public List<ScheduleState> states() {
    List<ScheduleState> out = new ArrayList<>();
    guards.values().forEach(g -> out.add(g.state()));
    return out;
  }

  /** Notes an annotated method; a leader role is checked once every singleton exists. */
  void expect(Resolved resolved) {
    if (!resolved.leaderRole().isEmpty()) {
      if (checked) {
        check(resolved);
      } else {
        leaderSchedules.add(resolved);
      }
    }
  }

  @Override
  public void afterSingletonsInstantiated() {
    checked = true;
    leaderSchedules.forEach(this::check);
  }

  private void check(Resolved r) {
    String problem = LeaderGuards.problem(beans, leadershipPresent(), r.leaderRole());
    if (problem != null) {
      throw ExclusiveScheduleResolver.misconfigured(r.where(), problem, null);
    }
  }

  private boolean leadershipPresent() {
    ClassLoader loader =
        beans instanceof ConfigurableBeanFactory c && c.getBeanClassLoader() != null
            ? c.getBeanClassLoader()
            : getClass().getClassLoader();
    return ClassUtils.isPresent(LEADERSHIP_CLASS, loader);
  }
}
