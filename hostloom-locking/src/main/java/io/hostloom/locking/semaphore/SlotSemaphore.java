package io.hostloom.locking.semaphore;

import io.hostloom.locking.ActionInterrupter;
import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockBackendUnavailableException;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockInterruptedException;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.OnLost;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One semaphore: acquisition in rounds (see {@link DistributedSemaphore}). Each attempt is one
 * kernel acquisition with one attempt ({@code tryAcquire}, retry limit 0), so the kernel's lease
 * engine holds every permit; this class only picks slots (generic) or counts attempts (native) and
 * waits between rounds.
 */
final class SlotSemaphore implements DistributedSemaphore {
  private static final LockRetryPolicy ONE_ATTEMPT = LockRetryPolicy.immediate(0);

  private final SlotSemaphores factory;
  private final String name;
  private final int permits;

  SlotSemaphore(SlotSemaphores factory, String name, int permits) {
    this.factory = factory;
    this.name = name;
    this.permits = permits;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public int permits() {
    return permits;
  }

  @Override
  public Permits acquire(int count, LockOptions options) {
    Permits p = new Call(count, options).run();
    if (p == null) {
      throw new IllegalStateException("unreachable: a busy acquire throws");
    }
    return p;
  }

  @Override
  public Optional<Permits> tryAcquire(int count, LockOptions options) {
    Call c = new Call(count, options);
    c.throwWhenBusy = false;
    return Optional.ofNullable(c.run());
  }

  @Override
  public <T, X extends Exception> T executeWithPermits(
      int count, LockOptions options, PermitsCallable<T, X> action) throws X {
    Objects.requireNonNull(action, "action");
    try (Permits p = acquire(count, options)) {
      ActionInterrupter interrupt =
          options.onLost() == OnLost.CANCEL ? new ActionInterrupter(Thread.currentThread()) : null;
      if (interrupt != null) {
        var unused = p.lost().thenRun(interrupt);
      }
      try {
        return action.call(p);
      } finally {
        if (interrupt != null) {
          interrupt.end();
        }
      }
    }
  }

  @Override
  public String toString() {
    return "DistributedSemaphore[" + name + ", permits=" + permits + "]";
  }

  /** One acquire or tryAcquire call. Runs on the caller's thread. */
  private final class Call {
    final int count;
    final LockOptions options;
    final LockClock clock = factory.clock();
    final LockRetryPolicy retry;
    final long maxWait; // -1: none
    final long start;
    final LockOptions fixedSlotOptions; // null when each attempt gets the rest of maxWait
    boolean throwWhenBusy = true;
    int attempts;

    Call(int count, LockOptions options) {
      Objects.requireNonNull(options, "options");
      if (count < 1 || count > permits) {
        throw new IllegalArgumentException(
            "count must be between 1 and "
                + permits
                + " (the permits of semaphore '"
                + name
                + "') but was "
                + count);
      }
      factory.checkOpen();
      this.count = count;
      this.options = options;
      this.retry = options.retry().orElse(factory.defaultRetry());
      this.maxWait = options.maxWait().map(SlotSemaphore::nanos).orElse(-1L);
      this.start = clock.nanoTime();
      this.fixedSlotOptions = maxWait > 0 ? null : slotOptions(Duration.ZERO);
    }

    private LockOptions slotOptions(Duration maxWaitOfAttempt) {
      return options.toBuilder().retry(ONE_ATTEMPT).maxWait(maxWaitOfAttempt).build();
    }

    /** The permits, or null when busy and not {@link #throwWhenBusy}. */
    Permits run() {
      if (Thread.currentThread().isInterrupted()) {
        throw LockInterruptedException.acquiring(name);
      }
      DistributedLock lock = factory.lock(permits);
      int retries = 0;
      boolean inStep = false; // a retry delay runs: a round now is a woken one, free
      long stepEnd = 0;
      while (true) {
        long now = clock.nanoTime();
        if (maxWait > 0 && now - start >= maxWait) {
          return busy(now);
        }
        long delay = -1;
        if (!inStep) {
          int next = retries + 1;
          delay = next > retry.retryLimit() || maxWait == 0 ? -1 : nanos(retry.getDelay(next));
        }
        // subscribe before the round, so a release during it is not missed
        List<CompletableFuture<Boolean>> signals = subscribe(inStep ? stepEnd - now : delay);
        List<Permit> got;
        try {
          got = round(lock);
        } catch (RuntimeException e) {
          end(signals);
          throw e;
        }
        if (got != null) {
          end(signals);
          return new GrantedPermits(name, got, factory.heldCounter());
        }
        now = clock.nanoTime();
        if (!inStep) {
          if (delay < 0 || (maxWait > 0 && now - start + delay >= maxWait)) {
            end(signals);
            return busy(now); // no retry left, or its delay would reach maxWait
          }
          retries++;
          stepEnd = now + delay;
          inStep = true;
        }
        inStep = await(signals, stepEnd - now);
        factory.checkOpen();
      }
    }

    /** The options of one attempt; null when {@code maxWait} is spent. */
    private LockOptions attemptOptions() {
      if (fixedSlotOptions != null) {
        return fixedSlotOptions;
      }
      long left = maxWait - (clock.nanoTime() - start);
      return left <= 0 ? null : slotOptions(Duration.ofNanos(left));
    }

    /**
     * One round until {@code count} permits are held; null when not. Generic: the slots in a random
     * rotation, one attempt per slot. Native: one attempt per permit, on the semaphore's one key,
     * which takes any free slot; the first refusal ends the round (the semaphore is full).
     */
    private List<Permit> round(DistributedLock lock) {
      List<Permit> got = new ArrayList<>(count);
      try {
        if (factory.isNative()) {
          while (got.size() < count) {
            LockOptions one = attemptOptions();
            if (one == null) {
              break;
            }
            attempts++;
            Optional<LockHandle> h = lock.tryAcquire(name, one);
            if (h.isEmpty()) {
              break;
            }
            got.add(
                new Permit((int) Math.floorMod(h.get().fencingToken(), (long) permits), h.get()));
          }
        } else {
          int first = ThreadLocalRandom.current().nextInt(permits);
          for (int i = 0; i < permits && got.size() < count; i++) {
            if (permits - i < count - got.size()) {
              break; // too few slots left to try
            }
            LockOptions one = attemptOptions();
            if (one == null) {
              break;
            }
            int slot = (first + i) % permits;
            attempts++;
            Optional<LockHandle> h = lock.tryAcquire(SlotBackend.lockKey(name, slot), one);
            if (h.isPresent()) {
              got.add(new Permit(slot, h.get()));
            }
          }
        }
      } catch (LockBackendUnavailableException e) {
        giveBack(got);
        if (e.getCause() instanceof PermitCountMismatchException m) {
          throw PermitCountMismatchException.of(m.name(), m.permits(), m.otherPermits());
        }
        throw e;
      } catch (RuntimeException e) {
        giveBack(got);
        throw e;
      }
      if (got.size() == count) {
        got.sort(Comparator.comparingInt(Permit::slot));
        return got;
      }
      giveBack(got);
      return null;
    }

    private Permits busy(long now) {
      if (throwWhenBusy) {
        throw LockNotAcquiredException.of(name, attempts, Duration.ofNanos(now - start));
      }
      return null;
    }

    /**
     * One release wait per slot key (native: on the semaphore's key), for at most {@code window};
     * empty without a signal.
     */
    private List<CompletableFuture<Boolean>> subscribe(long window) {
      ReleaseSignal rs = factory.signal();
      if (rs == null || window <= 0) {
        return List.of();
      }
      String ns = factory.options().namespace();
      int keys = factory.isNative() ? 1 : permits; // native: a release of any permit, one key
      List<CompletableFuture<Boolean>> waits = new ArrayList<>(keys);
      for (int slot = 0; slot < keys; slot++) {
        String key =
            factory.isNative()
                ? SlotBackend.nativeKey(ns, name)
                : SlotBackend.backendKey(ns, name, slot);
        try {
          waits.add(rs.awaitRelease(key, Duration.ofNanos(window)));
        } catch (RuntimeException e) {
          // a broken signal costs only the wake-up: the retry delay still ends the wait
        }
      }
      return waits;
    }

    /**
     * Waits until the step ends ({@code false}) or a slot is announced released ({@code true});
     * ends the release waits either way.
     */
    private boolean await(List<CompletableFuture<Boolean>> signals, long nanos) {
      if (nanos <= 0) {
        end(signals);
        return false;
      }
      CompletableFuture<Boolean> wake = new CompletableFuture<>();
      factory.track(wake); // first: a close from now on ends this wait
      LockClock.Timer timer = clock.scheduleNanos(nanos, () -> wake.complete(false));
      for (CompletableFuture<Boolean> s : signals) {
        var unused =
            s.thenAccept(
                released -> {
                  if (Boolean.TRUE.equals(released)) {
                    wake.complete(true);
                  }
                });
      }
      try {
        return wake.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw LockInterruptedException.acquiring(name);
      } catch (ExecutionException e) {
        throw new IllegalStateException("unreachable: the wait never fails", e);
      } finally {
        timer.cancel();
        wake.complete(false);
        end(signals);
      }
    }
  }

  private static void end(List<CompletableFuture<Boolean>> signals) {
    for (CompletableFuture<Boolean> s : signals) {
      s.complete(false); // frees the backend's wait; cheaper than cancel
    }
  }

  /** Gives back permits of a round that did not get all it needed: released at once. */
  static void giveBack(List<Permit> got) {
    List<CompletableFuture<Void>> releases = new ArrayList<>(got.size());
    for (Permit p : got) {
      p.lease().holdAtLeast(Duration.ZERO); // a minimum hold is for work done, not for a give-back
      releases.add(p.lease().closeAsync());
    }
    CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new)).join();
  }

  static long nanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE / 4;
    }
  }
}
