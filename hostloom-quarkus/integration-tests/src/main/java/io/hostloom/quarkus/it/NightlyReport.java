package io.hostloom.quarkus.it;

import io.hostloom.quarkus.WithLock;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

// snippet:quarkus-with-lock
/**
 * One instance at a time renders the nightly report; a busy key throws LockNotAcquiredException.
 */
@ApplicationScoped
public class NightlyReport {
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicInteger mostAtOnce = new AtomicInteger();

  @WithLock(value = "nightly-report", lease = "30s", maxWait = "0s")
  public void render(CountDownLatch finish) throws InterruptedException {
    mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
    try {
      finish.await(10, TimeUnit.SECONDS);
    } finally {
      running.decrementAndGet();
    }
  }

  /** The most calls inside render at one time (the test checks it is 1). */
  public int mostAtOnce() {
    return mostAtOnce.get();
  }
}
// end:quarkus-with-lock
