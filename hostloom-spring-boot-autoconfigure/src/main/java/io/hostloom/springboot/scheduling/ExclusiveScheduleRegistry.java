package io.hostloom.springboot.scheduling;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.time.LockClock;
import io.hostloom.scheduling.RunResult;
import io.hostloom.scheduling.ScheduleGuard;
import io.hostloom.scheduling.ScheduleListener;
import io.hostloom.scheduling.ScheduleOptions;
import io.hostloom.scheduling.ScheduleState;
import io.hostloom.scheduling.ScheduledJob;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.beans.factory.ObjectProvider;

/**
 * One {@link ScheduleGuard} per schedule name in the application, over the application's {@link
 * DistributedLock} (looked up on first use, so post-processors that create guards do not pull the
 * lock in early). Shared by the {@code @ExclusiveSchedule} proxy and {@link
 * ExclusiveTaskScheduler}.
 */
public final class ExclusiveScheduleRegistry {
  private final ObjectProvider<DistributedLock> lock;
  private final ObjectProvider<LockClock> clock;
  private final ObjectProvider<ScheduleListener> listener;
  private final Map<String, ScheduleGuard> guards = new ConcurrentHashMap<>();

  ExclusiveScheduleRegistry(
      ObjectProvider<DistributedLock> lock,
      ObjectProvider<LockClock> clock,
      ObjectProvider<ScheduleListener> listener) {
    this.lock = lock;
    this.clock = clock;
    this.listener = listener;
  }

  /**
   * Runs {@code job} as one occurrence of {@code options.name()} and rethrows what it failed with
   * ({@link RunResult#throwIfFailed()}).
   */
  public RunResult run(ScheduleOptions options, ScheduledJob job) {
    return guard(options).run(job).throwIfFailed();
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

  /** The state of every schedule that ran at least once through this registry. */
  public List<ScheduleState> states() {
    List<ScheduleState> out = new ArrayList<>();
    guards.values().forEach(g -> out.add(g.state()));
    return out;
  }
}
