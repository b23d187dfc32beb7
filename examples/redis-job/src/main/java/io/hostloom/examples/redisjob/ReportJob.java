package io.hostloom.examples.redisjob;

import io.hostloom.scheduling.RunOutcome;
import io.hostloom.scheduling.RunResult;
import io.hostloom.scheduling.ScheduleOptions;
import io.hostloom.springboot.scheduling.ExclusiveScheduleRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The nightly report, every {@code example.report.interval} here so it can be watched: each round
 * the schedule's guard ({@code hostloom-scheduling}) claims the round on one instance, which runs
 * it; the others skip it. The claim's fencing token goes with the report's write, so a holder whose
 * lease ran out cannot overwrite a newer report. (Without the token, {@code @ExclusiveSchedule} on
 * this method does the same with no code at all.)
 */
@Component
public class ReportJob {
  /** Skip if busy (the default), a 30 s lease, released when the round ends. */
  static final ScheduleOptions SCHEDULE =
      ScheduleOptions.builder("nightly-report").lease(Duration.ofSeconds(30)).build();

  private static final Logger log = LoggerFactory.getLogger(ReportJob.class);

  private final ExclusiveScheduleRegistry schedules;
  private final AtomicInteger runs = new AtomicInteger();
  private final AtomicInteger skips = new AtomicInteger();
  private final AtomicLong lastToken = new AtomicLong();

  public ReportJob(ExclusiveScheduleRegistry schedules) {
    this.schedules = schedules;
  }

  @Scheduled(fixedDelayString = "${example.report.interval:1m}")
  public void run() {
    RunResult r = schedules.run(SCHEDULE, claim -> writeReport(claim.fencingToken()));
    if (r.outcome() == RunOutcome.SKIPPED) {
      skips.incrementAndGet();
      log.info("report skipped: another instance runs this round");
    }
    r.throwIfFailed(); // a backend outage reaches the scheduler's error handler, never "run anyway"
  }

  private void writeReport(long fencingToken) {
    // a real job writes here, conditioned on the token (UPDATE ... WHERE fence < :token)
    lastToken.set(fencingToken);
    runs.incrementAndGet();
    log.info("report written with fencing token {}", fencingToken);
  }

  public int runs() {
    return runs.get();
  }

  public int skips() {
    return skips.get();
  }

  public long lastToken() {
    return lastToken.get();
  }
}
