package io.hostloom.locking.time;

import java.util.Arrays;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The timers of {@link LockClock#system()}: one daemon thread running tasks in due order, over a
 * binary heap whose entries know their index, so a cancel removes its entry at once.
 *
 * <p>Why not a {@code ScheduledThreadPoolExecutor}: it signals its thread whenever a new task
 * becomes the earliest, which with one lease held at a time is every acquisition, so each acquire +
 * release paid a thread wake-up (and 110 B of task, adapter and handle). Here a new task wakes the
 * thread only when it is due before the thread's planned wake-up: a lease timer armed after the
 * previous one was cancelled is due later than that one, so the thread sleeps on and wakes once at
 * the old due time to find nothing to do. A cancel never wakes it.
 */
final class TimerThread {
  private static final long MAX_DELAY_NANOS = 1L << 62;

  private final String name;
  private final LongSupplier nanoTime;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();

  // guarded by lock
  private Entry[] heap = new Entry[16];
  private int size;
  private long sequence;
  private Thread thread;
  private boolean waiting; // the thread is parked in changed.await*
  private boolean waitingForever; // ... with no deadline
  private long wakeAtNanos; // ... until this time

  TimerThread(String name) {
    this(name, System::nanoTime);
  }

  /** With a time source of its own (tests: a time that jumps past every due time at once). */
  TimerThread(String name, LongSupplier nanoTime) {
    this.name = name;
    this.nanoTime = nanoTime;
  }

  /** Runs {@code task} on the timer thread once {@code delayNanos} have passed. */
  LockClock.Timer schedule(long delayNanos, Runnable task) {
    // at most 2^62 ns (146 years: never), so due times compare by subtraction without overflow
    long due = nanoTime.getAsLong() + Math.min(Math.max(0, delayNanos), MAX_DELAY_NANOS);
    Entry e = new Entry(task, due);
    lock.lock();
    try {
      e.seq = sequence++;
      add(e);
      if (thread == null) {
        thread = new Thread(this::loop, name);
        thread.setDaemon(true);
        thread.start();
      } else if (waiting && (waitingForever || due - wakeAtNanos < 0)) {
        changed.signal(); // due before the planned wake-up: the thread must re-plan
      }
    } finally {
      lock.unlock();
    }
    return e;
  }

  private void loop() {
    while (true) {
      Runnable task = next();
      try {
        task.run();
      } catch (RuntimeException | Error t) {
        // as an executor would: one failing task stops no other (the kernel's catch their own)
      }
    }
  }

  /** Waits for the earliest task to be due and removes it. */
  private Runnable next() {
    lock.lock();
    try {
      while (true) {
        if (size == 0) {
          waiting = true;
          waitingForever = true;
          changed.awaitUninterruptibly();
        } else {
          Entry head = heap[0];
          long left = head.due - nanoTime.getAsLong();
          if (left <= 0) {
            removeAt(0);
            return head.task;
          }
          waiting = true;
          waitingForever = false;
          wakeAtNanos = head.due;
          try {
            long unused = changed.awaitNanos(left);
          } catch (InterruptedException e) {
            // nobody interrupts this thread on purpose; keep serving timers
          }
        }
        waiting = false;
      }
    } finally {
      waiting = false;
      lock.unlock();
    }
  }

  private void cancel(Entry e) {
    lock.lock();
    try {
      if (e.index >= 0) {
        removeAt(e.index);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Tasks waiting (for tests). */
  int pending() {
    lock.lock();
    try {
      return size;
    } finally {
      lock.unlock();
    }
  }

  // ---------------------------------------------------------------- the heap (guarded by lock)

  private void add(Entry e) {
    if (size == heap.length) {
      heap = Arrays.copyOf(heap, size * 2);
    }
    heap[size] = e;
    e.index = size;
    size++;
    siftUp(e.index);
  }

  private void removeAt(int i) {
    Entry removed = heap[i];
    removed.index = -1;
    size--;
    if (i == size) {
      heap[size] = null;
      return;
    }
    Entry last = heap[size];
    heap[size] = null;
    heap[i] = last;
    last.index = i;
    siftDown(i);
    if (heap[i] == last) {
      siftUp(i);
    }
  }

  private void siftUp(int i) {
    Entry e = heap[i];
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      Entry p = heap[parent];
      if (!e.before(p)) {
        break;
      }
      heap[i] = p;
      p.index = i;
      i = parent;
    }
    heap[i] = e;
    e.index = i;
  }

  private void siftDown(int i) {
    Entry e = heap[i];
    while (true) {
      int child = 2 * i + 1;
      if (child >= size) {
        break;
      }
      if (child + 1 < size && heap[child + 1].before(heap[child])) {
        child++;
      }
      Entry c = heap[child];
      if (!c.before(e)) {
        break;
      }
      heap[i] = c;
      c.index = i;
      i = child;
    }
    heap[i] = e;
    e.index = i;
  }

  /** One scheduled task; also its own {@link LockClock.Timer} handle. */
  private final class Entry implements LockClock.Timer {
    final Runnable task;
    final long due;
    long seq; // ties run in scheduling order
    int index = -1; // position in the heap; -1 once run or cancelled

    Entry(Runnable task, long due) {
      this.task = task;
      this.due = due;
    }

    boolean before(Entry o) {
      long d = due - o.due;
      return d < 0 || (d == 0 && seq < o.seq);
    }

    @Override
    public void cancel() {
      TimerThread.this.cancel(this);
    }
  }
}
