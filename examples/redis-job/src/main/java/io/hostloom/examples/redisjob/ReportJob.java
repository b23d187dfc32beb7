package io.hostloom.examples.redisjob;

import io.hostloom.locking.DistributedLock;
import io.hostloom.scheduling.ExclusiveScheduler;
import io.hostloom.scheduling.RunOutcome;
import io.hostloom.scheduling.RunResult;
import io.hostloom.scheduling.ScheduleGuard;
import io.hostloom.scheduling.ScheduleHandle;
import io.hostloom.scheduling.ScheduleListener;
import io.hostloom.scheduling.ScheduleOptions;
import io.hostloom.scheduling.ScheduleTrigger;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The report, once per round on exactly one of the instances. Rounds are the instants {@code EPOCH
 * + k * period} ({@link ScheduleTrigger#fixedRateAligned}), the same in every process; each round,
 * every instance asks for the claim {@code schedule:report} over Redis, one gets it and writes the
 * report, and the claim is kept for a <b>minimum hold</b> of 3/4 period (however fast the job), so
 * an instance that fires the same round a little later is refused and skips it. A <b>max
 * lateness</b> of 1/2 period (below the minimum hold) makes that a guarantee, not a likelihood: an
 * instance more than that late skips the round instead of claiming it (hostloom-scheduling README,
 * "At most once per occurrence"). The claim's fencing token goes with the write, so a holder whose
 * lease ran out cannot overwrite a newer report.
 */
@Component
public class ReportJob implements SmartLifecycle {
  static final String NAME = "report";

  private static final Logger log = LoggerFactory.getLogger(ReportJob.class);

  private final DistributedLock lock;
  private final Duration period;
  private final String instance;
  private final Map<Instant, Long> written = new ConcurrentHashMap<>();
  private final Set<Instant> skipped = ConcurrentHashMap.newKeySet();
  private ScheduledExecutorService executor;
  private ScheduleHandle handle;

  public ReportJob(
      DistributedLock lock,
      @Value("${example.report.period:1m}") Duration period,
      @Value("${example.instance:${random.value}}") String instance) {
    this.lock = lock;
    this.period = period;
    this.instance = instance;
  }

  /** Skip if busy (the default), held at least 3/4 period, never claimed more than 1/2 late. */
  static ScheduleOptions options(Duration period) {
    return ScheduleOptions.builder(NAME)
        .lease(Duration.ofSeconds(30).plus(period))
        .minimumHold(period.multipliedBy(3).dividedBy(4))
        .maxLateness(period.dividedBy(2))
        .build();
  }

  @Override
  public synchronized void start() {
    ScheduleGuard guard =
        ScheduleGuard.builder(lock, options(period)).listener(new RoundLog()).build();
    executor = Executors.newScheduledThreadPool(2);
    handle =
        ExclusiveScheduler.on(executor)
            .schedule(
                guard,
                ScheduleTrigger.fixedRateAligned(period),
                claim -> writeReport(claim.occurrence(), claim.fencingToken()));
  }

  @Override
  public synchronized void stop() {
    handle.cancel();
    executor.shutdownNow();
    handle = null;
  }

  @Override
  public synchronized boolean isRunning() {
    return handle != null;
  }

  private void writeReport(Instant round, long fencingToken) {
    // a real job writes here, conditioned on the token (UPDATE ... WHERE fence < :token)
    written.put(round, fencingToken);
    log.info("round {}: report written by {} with fencing token {}", round, instance, fencingToken);
  }

  /** Logs the rounds this instance skipped, and why the others failed. */
  private final class RoundLog implements ScheduleListener {
    @Override
    public void runFinished(RunResult r) {
      if (r.outcome() == RunOutcome.SKIPPED) {
        skipped.add(r.occurrence());
        log.info(
            "round {}: report skipped by {}: another instance has the round (or this one fired too late)",
            r.occurrence(),
            instance);
      }
    }
  }

  /** The rounds this instance wrote the report in, with the fencing token of each write. */
  public Map<Instant, Long> written() {
    return Map.copyOf(written);
  }

  /** The rounds this instance fired and skipped (the claim was held elsewhere, or it was late). */
  public Set<Instant> skipped() {
    return Set.copyOf(skipped);
  }
}
