package io.hostloom.micronaut;

import jakarta.inject.Singleton;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/** A bean whose methods run under {@link WithLock}, for the tests. */
@Singleton
public class Guarded {
  private final AtomicInteger inside = new AtomicInteger();
  private final AtomicInteger mostInside = new AtomicInteger();
  private int counter; // deliberately unsynchronized: only the lock keeps updates from being lost

  /** Holds "hold" until {@code release} opens, after opening {@code entered}. */
  @WithLock(value = "hold", maxWait = "0s")
  public String hold(CountDownLatch entered, CountDownLatch release) throws InterruptedException {
    entered.countDown();
    if (!release.await(30, TimeUnit.SECONDS)) {
      throw new IllegalStateException("never released");
    }
    return "held";
  }

  /** A read-pause-write increment that loses updates unless calls exclude each other. */
  @WithLock(value = "counter", maxWait = "30s")
  public void increment() {
    mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
    int seen = counter;
    LockSupport.parkNanos(100_000); // widens the window in which an unguarded update is lost
    counter = seen + 1;
    inside.decrementAndGet();
  }

  /** Runs {@code body} under "leased" with a 20 s lease. */
  @WithLock(value = "leased", lease = "20s")
  public <T> T leased(Supplier<T> body) {
    return body.get();
  }

  /** Runs {@code body} under "default-leased" with the lock's default lease. */
  @WithLock("default-leased")
  public <T> T defaultLeased(Supplier<T> body) {
    return body.get();
  }

  /** Runs {@code body} under "nested", and inside it again under "nested". */
  @WithLock("nested")
  public void nested(Runnable body) {
    body.run();
  }

  public int counter() {
    return counter;
  }

  public int mostInside() {
    return mostInside.get();
  }
}
