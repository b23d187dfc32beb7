package io.hostloom.micrometer;

import io.hostloom.locking.LockEventListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Turns a lock's {@link LockEventListener} events into the contract's meters and observations. Pass
 * it to {@code DistributedLock.builder(...).listener(...)}; one instance can serve many locks.
 *
 * <p>Meters (every one tagged {@value #NAMESPACE_TAG}; keys and owner tokens are never tags):
 *
 * <ul>
 *   <li>{@value #ACQUIRE_DURATION} timer, tag {@value #OUTCOME_TAG} = acquired | not_acquired |
 *       unavailable (abandoned acquisitions record nothing)
 *   <li>{@value #HOLD_DURATION} timer, one sample per closed real handle
 *   <li>{@value #ACTIVE} gauge: handles held now
 *   <li>{@value #LOST} counter, tag {@value #REASON_TAG} = expired | extend_refused |
 *       extend_too_late | release_refused
 *   <li>{@value #ORPHAN_RELEASES} counter, tag {@value #OUTCOME_TAG} = released | absent | failed
 *   <li>{@value #ENABLED} gauge: 1 while an enabled lock of the namespace is open, 0 while only
 *       disabled ones are, removed when none is
 *   <li>{@value #EXTEND} counter, tags {@value #OUTCOME_TAG} = extended | refused | too_late |
 *       failed and {@value #EXTEND_KIND_TAG} = manual | automatic
 * </ul>
 *
 * <p>Observations: {@value #EXECUTE_OBSERVATION} around {@code executeWithLock} (high-cardinality
 * {@value #KEY_TAG}, and {@value #HOLD_MS_TAG} after release) with child {@value
 * #ACQUIRE_OBSERVATION} (low-cardinality {@value #ACQUIRED_TAG} and outcome, high-cardinality key
 * and {@value #WAIT_MS_TAG} except on a backend failure, which is the observation's error).
 */
public final class LockMetricsListener implements LockEventListener {
  public static final String ACQUIRE_DURATION = "hostloom.lock.acquire.duration";
  public static final String HOLD_DURATION = "hostloom.lock.hold.duration";
  public static final String ACTIVE = "hostloom.lock.active";
  public static final String LOST = "hostloom.lock.lost";
  public static final String ORPHAN_RELEASES = "hostloom.lock.orphan_releases";
  public static final String ENABLED = "hostloom.lock.enabled";
  public static final String EXTEND = "hostloom.lock.extend";
  public static final String EXECUTE_OBSERVATION = "lock.execute";
  public static final String ACQUIRE_OBSERVATION = "lock.acquire";

  public static final String NAMESPACE_TAG = "hostloom.lock.namespace";
  public static final String OUTCOME_TAG = "hostloom.lock.outcome";
  public static final String REASON_TAG = "hostloom.lock.reason";
  public static final String EXTEND_KIND_TAG = "hostloom.lock.extend.kind";
  public static final String KEY_TAG = "hostloom.lock.key";
  public static final String ACQUIRED_TAG = "hostloom.lock.acquired";
  public static final String WAIT_MS_TAG = "hostloom.lock.wait_ms";
  public static final String HOLD_MS_TAG = "hostloom.lock.hold_ms";

  private final MeterRegistry meters;
  private final ObservationRegistry observations;
  private final Map<String, Timer> timers = new ConcurrentHashMap<>();
  private final Map<String, Counter> counters = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> active = new ConcurrentHashMap<>();
  private final Map<String, EnabledState> enabled = new ConcurrentHashMap<>();

  /** Counts the open locks of one namespace for the enabled gauge. */
  private static final class EnabledState {
    final AtomicInteger enabledLocks = new AtomicInteger();
    final AtomicInteger disabledLocks = new AtomicInteger();
    Gauge gauge;

    double value() {
      return enabledLocks.get() > 0 ? 1 : 0;
    }
  }

  /** Meters only, no observations. */
  public LockMetricsListener(MeterRegistry meters) {
    this(meters, ObservationRegistry.NOOP);
  }

  public LockMetricsListener(MeterRegistry meters, ObservationRegistry observations) {
    this.meters = Objects.requireNonNull(meters, "meters");
    this.observations = Objects.requireNonNull(observations, "observations");
  }

  private static String tag(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }

  private Timer timer(String name, String namespace, String outcome) {
    String id = name + '|' + namespace + '|' + outcome;
    return timers.computeIfAbsent(
        id,
        k -> {
          Timer.Builder b = Timer.builder(name).tag(NAMESPACE_TAG, namespace);
          if (outcome != null) {
            b.tag(OUTCOME_TAG, outcome);
          }
          return b.register(meters);
        });
  }

  private Counter counter(String name, String namespace, String... tags) {
    String id = name + '|' + namespace + '|' + String.join("|", tags);
    return counters.computeIfAbsent(
        id,
        k ->
            Counter.builder(name)
                .tags(Tags.of(tags).and(NAMESPACE_TAG, namespace))
                .register(meters));
  }

  private AtomicLong active(String namespace) {
    return active.computeIfAbsent(
        namespace,
        ns -> {
          AtomicLong v = new AtomicLong();
          Gauge.builder(ACTIVE, v, AtomicLong::get)
              .tag(NAMESPACE_TAG, ns)
              .description("lock handles held now")
              .register(meters);
          return v;
        });
  }

  @Override
  public void lockOpened(LockLifecycle e) {
    String namespace = e.namespace();
    boolean enabledLock = e.enabled();
    active(namespace);
    enabled.compute(
        namespace,
        (ns, s) -> {
          EnabledState state = s != null ? s : new EnabledState();
          (enabledLock ? state.enabledLocks : state.disabledLocks).incrementAndGet();
          if (state.gauge == null) {
            state.gauge =
                Gauge.builder(ENABLED, state, EnabledState::value)
                    .tag(NAMESPACE_TAG, ns)
                    .description("1 when locking coordinates through a backend, 0 when disabled")
                    .register(meters);
          }
          return state;
        });
  }

  @Override
  public void lockClosed(LockLifecycle e) {
    String namespace = e.namespace();
    boolean enabledLock = e.enabled();
    enabled.computeIfPresent(
        namespace,
        (ns, state) -> {
          (enabledLock ? state.enabledLocks : state.disabledLocks).decrementAndGet();
          if (state.enabledLocks.get() + state.disabledLocks.get() <= 0) {
            meters.remove(state.gauge);
            return null;
          }
          return state;
        });
  }

  @Override
  public Object executeStarted(ExecuteStarted e) {
    return Observation.createNotStarted(EXECUTE_OBSERVATION, observations)
        .lowCardinalityKeyValue(NAMESPACE_TAG, e.namespace())
        .highCardinalityKeyValue(KEY_TAG, e.key())
        .start();
  }

  @Override
  public void executeFinished(ExecuteFinished e) {
    long holdNanos = e.holdNanos();
    Throwable failure = e.failure();
    if (e.context() instanceof Observation o) {
      if (holdNanos >= 0) {
        o.highCardinalityKeyValue(HOLD_MS_TAG, Long.toString(holdNanos / 1_000_000));
      }
      if (failure != null) {
        o.error(failure);
      }
      o.stop();
    }
  }

  @Override
  public Object acquireStarted(AcquireStarted e) {
    Observation o =
        Observation.createNotStarted(ACQUIRE_OBSERVATION, observations)
            .lowCardinalityKeyValue(NAMESPACE_TAG, e.namespace())
            .highCardinalityKeyValue(KEY_TAG, e.key());
    if (e.parent() instanceof Observation p) {
      o.parentObservation(p);
    }
    return o.start();
  }

  @Override
  public void acquireFinished(AcquireFinished e) {
    String namespace = e.namespace();
    AcquireResult result = e.result();
    long waitedNanos = e.waitedNanos();
    Throwable failure = e.failure();
    if (result != AcquireResult.ABANDONED) {
      timer(ACQUIRE_DURATION, namespace, tag(result)).record(waitedNanos, TimeUnit.NANOSECONDS);
    }
    if (result == AcquireResult.ACQUIRED) {
      active(namespace).incrementAndGet();
    }
    if (e.context() instanceof Observation o) {
      o.lowCardinalityKeyValue(ACQUIRED_TAG, Boolean.toString(result == AcquireResult.ACQUIRED));
      o.lowCardinalityKeyValue(OUTCOME_TAG, tag(result));
      if (result != AcquireResult.UNAVAILABLE) {
        o.highCardinalityKeyValue(WAIT_MS_TAG, Long.toString(waitedNanos / 1_000_000));
      }
      if (failure != null) {
        o.error(failure);
      }
      o.stop();
    }
  }

  @Override
  public void leaseLost(LeaseLost e) {
    counter(LOST, e.namespace(), REASON_TAG, e.reason().tagValue()).increment();
    active(e.namespace()).decrementAndGet();
  }

  @Override
  public void released(Released e) {
    timer(HOLD_DURATION, e.namespace(), null).record(e.holdNanos(), TimeUnit.NANOSECONDS);
    if (e.wasActive()) {
      active(e.namespace()).decrementAndGet();
    }
  }

  @Override
  public void extended(Extended e) {
    counter(
            EXTEND,
            e.namespace(),
            OUTCOME_TAG,
            tag(e.result()),
            EXTEND_KIND_TAG,
            e.automatic() ? "automatic" : "manual")
        .increment();
  }

  @Override
  public void orphanReleased(OrphanReleased e) {
    counter(ORPHAN_RELEASES, e.namespace(), OUTCOME_TAG, tag(e.result())).increment();
  }
}
