package io.hostloom.examples.redisjob;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The nightly report, every {@code example.report.interval} here so it can be watched: whichever
 * instance gets the lock runs it; the others skip this round. The fencing token goes with the
 * report's write, so a holder whose lease ran out cannot overwrite a newer report.
 */
@Component
public class ReportJob {
  static final String KEY = "nightly-report";
  private static final Logger log = LoggerFactory.getLogger(ReportJob.class);

  /** One attempt, then skip: another instance is running this round. */
  private static final LockOptions SKIP_IF_BUSY =
      LockOptions.builder()
          .lease(Duration.ofSeconds(30))
          .retry(LockRetryPolicy.immediate(0))
          .build();

  private final DistributedLock lock;
  private final AtomicInteger runs = new AtomicInteger();
  private final AtomicInteger skips = new AtomicInteger();
  private final AtomicLong lastToken = new AtomicLong();

  public ReportJob(DistributedLock lock) {
    this.lock = lock;
  }

  @Scheduled(fixedDelayString = "${example.report.interval:1m}")
  public void run() {
    try {
      lock.executeWithLock(KEY, SKIP_IF_BUSY, handle -> writeReport(handle.fencingToken()));
    } catch (LockNotAcquiredException busy) {
      skips.incrementAndGet();
      log.info("report skipped: another instance holds {}", KEY);
    }
  }

  private int writeReport(long fencingToken) {
    // a real job writes here, conditioned on the token (UPDATE ... WHERE fence < :token)
    lastToken.set(fencingToken);
    log.info("report written with fencing token {}", fencingToken);
    return runs.incrementAndGet();
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
