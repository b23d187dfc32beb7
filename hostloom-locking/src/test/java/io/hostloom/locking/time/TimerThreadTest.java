package io.hostloom.locking.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The system clock's timer thread, on real time: order, cancellation, wake-ups. Each test holds the
 * thread in a first task while it schedules, so what runs afterwards depends on the heap only.
 */
class TimerThreadTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final long HOUR = TimeUnit.HOURS.toNanos(1);

  /** The timers' time: real time plus a jump a test adds to make everything scheduled due. */
  private final AtomicLong jump = new AtomicLong();

  private final TimerThread timers =
      new TimerThread("timer-thread-test", () -> System.nanoTime() + jump.get());
  private final List<Integer> ran = Collections.synchronizedList(new ArrayList<>());

  @Test
  void dueTasksRunInDueOrderAndTiesInSchedulingOrder() throws InterruptedException {
    CountDownLatch gate = hold();
    timers.schedule(3 * HOUR, () -> ran.add(3));
    timers.schedule(1 * HOUR, () -> ran.add(1));
    timers.schedule(2 * HOUR, () -> ran.add(2));
    timers.schedule(
        3 * HOUR, () -> ran.add(4)); // the same delay as 3, scheduled after it: after it
    CountDownLatch done = after(4 * HOUR);
    jump.set(5 * HOUR);
    gate.countDown();
    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(ran).containsExactly(1, 2, 3, 4);
  }

  @Test
  void aCancelledTaskNeverRunsAndLeavesTheQueueAtOnce() throws InterruptedException {
    CountDownLatch gate = hold();
    LockClock.Timer t = timers.schedule(0, () -> ran.add(1));
    timers.schedule(0, () -> ran.add(2));
    t.cancel();
    t.cancel(); // idempotent
    assertThat(timers.pending()).isEqualTo(1);
    CountDownLatch done = after(0);
    gate.countDown();
    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(ran).containsExactly(2);
  }

  @Test
  void aFailingTaskStopsNoOther() throws InterruptedException {
    timers.schedule(
        0,
        () -> {
          throw new IllegalStateException("a task failed");
        });
    CountDownLatch done = after(0);
    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void aTaskDueBeforeThePlannedWakeUpWakesTheThread() throws InterruptedException {
    LockClock.Timer far = timers.schedule(HOUR, () -> ran.add(1));
    CountDownLatch started = new CountDownLatch(1);
    timers.schedule(0, started::countDown); // the thread now sleeps until the far task
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    CountDownLatch soon = after(MS);
    assertThat(soon.await(10, TimeUnit.SECONDS)).as("woken for the sooner task").isTrue();
    far.cancel();
    assertThat(ran).isEmpty();
    assertThat(timers.pending()).isZero();
  }

  @Test
  void manyTasksWithRandomCancelsRunExactlyTheRestInOrder() throws InterruptedException {
    Random random = new Random(24);
    CountDownLatch gate = hold();
    List<long[]> kept = new ArrayList<>(); // {due offset, id}
    for (int id = 0; id < 500; id++) {
      long delay = random.nextInt(20) * HOUR; // scheduling takes far less than an hour per task
      int me = id;
      LockClock.Timer t = timers.schedule(delay, () -> ran.add(me));
      if (random.nextBoolean()) {
        t.cancel();
      } else {
        kept.add(new long[] {delay, id});
      }
    }
    assertThat(timers.pending()).isEqualTo(kept.size());
    CountDownLatch done = after(20 * HOUR);
    jump.set(21 * HOUR);
    gate.countDown();
    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    // ids were scheduled in order, so equal delays keep id order; the sort is stable
    kept.sort((a, b) -> Long.compare(a[0], b[0]));
    List<Integer> expected = new ArrayList<>();
    for (long[] k : kept) {
      expected.add((int) k[1]);
    }
    assertThat(ran).containsExactlyElementsOf(expected);
  }

  /** Blocks the timer thread in a task until the returned gate opens. */
  private CountDownLatch hold() throws InterruptedException {
    CountDownLatch gate = new CountDownLatch(1);
    CountDownLatch holding = new CountDownLatch(1);
    timers.schedule(
        0,
        () -> {
          holding.countDown();
          try {
            gate.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
    return gate;
  }

  /** A latch counted down by a task due after {@code delayNanos}, behind the tasks before it. */
  private CountDownLatch after(long delayNanos) {
    CountDownLatch done = new CountDownLatch(1);
    timers.schedule(delayNanos, done::countDown);
    return done;
  }
}
