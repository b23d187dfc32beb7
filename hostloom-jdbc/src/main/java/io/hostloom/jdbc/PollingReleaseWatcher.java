package io.hostloom.jdbc;

import io.hostloom.locking.spi.LeaseRecord;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Release waits for engines without LISTEN/NOTIFY: each wait reads the key on the backend's own
 * bounded path, first after {@value #FIRST_POLL_MILLIS} ms, then at doubling intervals capped at
 * {@value #MAX_POLL_MILLIS} ms, and signals {@code true} once the key is free or granted under a
 * new token (released, or expired, and maybe taken again). So the hand-off latency is at most the
 * interval current when the release happened, and each waiting caller costs one read per interval.
 * A failed read is ignored (the next one follows on schedule); {@code maxWait} ends the wait.
 */
final class PollingReleaseWatcher implements ReleaseWaits {
  static final long FIRST_POLL_MILLIS = 5;
  static final long MAX_POLL_MILLIS = 200;

  private final Function<String, CompletableFuture<Optional<LeaseRecord>>> read;
  private final ScheduledExecutorService timer;
  private final Set<Wait> waits = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  PollingReleaseWatcher(
      Function<String, CompletableFuture<Optional<LeaseRecord>>> read,
      ScheduledExecutorService timer) {
    this.read = read;
    this.timer = timer;
  }

  @Override
  public boolean isListening() {
    return !closed;
  }

  @Override
  public CompletableFuture<Boolean> await(String storedKey, Duration maxWait) {
    Wait wait = new Wait(storedKey, System.nanoTime() + maxWait.toNanos());
    waits.add(wait);
    CompletableFuture<?> unused = wait.signal.whenComplete((r, e) -> waits.remove(wait));
    if (closed) {
      wait.signal.complete(false);
    } else {
      wait.schedule(FIRST_POLL_MILLIS);
    }
    return wait.signal;
  }

  @Override
  public void close() {
    closed = true;
    waits.forEach(w -> w.signal.complete(false));
  }

  /** One waiting caller; identity is its equality. */
  private final class Wait {
    final String key;
    final long deadlineNanos;
    final CompletableFuture<Boolean> signal = new CompletableFuture<>();
    OptionalLong firstToken; // the holder's token at the first poll; written by one poll at a time

    Wait(String key, long deadlineNanos) {
      this.key = key;
      this.deadlineNanos = deadlineNanos;
    }

    void schedule(long delayMillis) {
      long left = deadlineNanos - System.nanoTime();
      long delay = Math.min(TimeUnit.MILLISECONDS.toNanos(delayMillis), Math.max(0, left));
      try {
        var unused =
            timer.schedule(() -> poll(delayMillis, delay >= left), delay, TimeUnit.NANOSECONDS);
      } catch (RejectedExecutionException e) {
        signal.complete(false);
      }
    }

    void poll(long intervalMillis, boolean last) {
      if (signal.isDone()) {
        return;
      }
      if (closed || last) {
        signal.complete(false);
        return;
      }
      CompletableFuture<?> unused =
          read.apply(key)
              .whenComplete(
                  (record, failure) -> {
                    if (failure == null && released(record)) {
                      signal.complete(true);
                    } else {
                      schedule(Math.min(MAX_POLL_MILLIS, intervalMillis * 2));
                    }
                  });
    }

    boolean released(Optional<LeaseRecord> record) {
      if (record.isEmpty()) {
        return true;
      }
      long token = record.get().fencingToken();
      if (firstToken == null) {
        firstToken = OptionalLong.of(token);
        return false;
      }
      return firstToken.getAsLong() != token;
    }
  }
}
