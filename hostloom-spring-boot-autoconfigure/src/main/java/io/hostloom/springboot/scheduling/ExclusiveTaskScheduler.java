package io.hostloom.springboot.scheduling;

import io.hostloom.scheduling.ScheduleOptions;
import io.hostloom.scheduling.ScheduledJob;
import java.lang.reflect.Method;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.support.ScheduledMethodRunnable;

/**
 * A {@link TaskScheduler} decorator for code that schedules programmatically: a task made with
 * {@link #exclusive(ScheduleOptions, Runnable)}, or a {@code @Scheduled} method runnable whose
 * method carries {@link ExclusiveSchedule}, runs through its schedule's guard (skip if claimed
 * elsewhere, failures rethrown to the delegate's error handling); any other task runs unchanged.
 *
 * <pre>{@code
 * ExclusiveTaskScheduler scheduler = new ExclusiveTaskScheduler(taskScheduler, registry);
 * scheduler.schedule(
 *     ExclusiveTaskScheduler.exclusive(ScheduleOptions.of("cleanup"), this::cleanUp),
 *     new CronTrigger("0 0 * * * *"));
 * }</pre>
 */
public final class ExclusiveTaskScheduler implements TaskScheduler {
  private final TaskScheduler delegate;
  private final ExclusiveScheduleRegistry registry;
  private final ExclusiveScheduleInterceptor annotations;

  /** Decorates {@code delegate}; guards come from the starter's {@code registry}. */
  public ExclusiveTaskScheduler(TaskScheduler delegate, ExclusiveScheduleRegistry registry) {
    this(delegate, registry, null);
  }

  ExclusiveTaskScheduler(
      TaskScheduler delegate,
      ExclusiveScheduleRegistry registry,
      ExclusiveScheduleInterceptor annotations) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.registry = Objects.requireNonNull(registry, "registry");
    this.annotations = annotations;
  }

  /** A task that this scheduler runs as an occurrence of the schedule {@code options}. */
  public static Runnable exclusive(ScheduleOptions options, Runnable task) {
    return new ExclusiveTask(Objects.requireNonNull(options, "options"), task);
  }

  private record ExclusiveTask(ScheduleOptions options, Runnable task) implements Runnable {
    @Override
    public void run() {
      task.run();
    }
  }

  private Runnable guarded(Runnable task) {
    if (task instanceof ExclusiveTask t) {
      return () -> registry.run(t.options(), ScheduledJob.of(t.task()));
    }
    if (annotations != null && task instanceof ScheduledMethodRunnable m) {
      Method method = m.getMethod();
      if (AnnotatedElementUtils.hasAnnotation(method, ExclusiveSchedule.class)) {
        ExclusiveScheduleResolver.Resolved resolved = annotations.optionsOf(method);
        return () -> registry.run(resolved, ScheduledJob.of(task));
      }
    }
    return task;
  }

  @Override
  public Clock getClock() {
    return delegate.getClock();
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable task, Trigger trigger) {
    return delegate.schedule(guarded(task), trigger);
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable task, Instant startTime) {
    return delegate.schedule(guarded(task), startTime);
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Instant startTime, Duration period) {
    return delegate.scheduleAtFixedRate(guarded(task), startTime, period);
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(Runnable task, Duration period) {
    return delegate.scheduleAtFixedRate(guarded(task), period);
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(
      Runnable task, Instant startTime, Duration delay) {
    return delegate.scheduleWithFixedDelay(guarded(task), startTime, delay);
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, Duration delay) {
    return delegate.scheduleWithFixedDelay(guarded(task), delay);
  }
}
