package io.hostloom.locking.semaphore;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockKey;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.PermitLeases;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.time.LockClock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * {@link DistributedSemaphores} over the kernel's lock: one {@link DistributedLock} per permit
 * count in use, each over a {@link SlotBackend} that stamps that count on its grants, over the
 * backend's {@link PermitLeases} view when it offers one (native) and over the backend itself
 * otherwise (N slot keys). The locks are made on first use and closed with this factory.
 */
final class SlotSemaphores implements DistributedSemaphores {
  private final LockingOptions options;
  private final LockBackend backend;
  private final PermitLeases permitLeases; // null: the generic slot construction
  private final ReleaseSignal signal; // null: no signal, or wake-on-release off
  private final LockClock clock;
  private final DistributedSemaphores.Builder builder;
  private final Logger log;
  private final Map<Integer, DistributedLock> locks = new HashMap<>(); // guarded by this
  private final Map<Long, CompletableFuture<Boolean>> waits = new ConcurrentHashMap<>();
  private final AtomicLong waitIds = new AtomicLong();
  private final AtomicInteger held = new AtomicInteger();
  private boolean closed; // guarded by this

  SlotSemaphores(DistributedSemaphores.Builder b, Logger log) {
    // re-entrancy is a property of executeWithLock, which the semaphore never uses
    this.options = b.options.toBuilder().detectReentrancy(false).build();
    this.backend = b.backend;
    this.permitLeases =
        options.enabled() && b.backend instanceof PermitLeases p && p.permitView(1).isPresent()
            ? p
            : null;
    this.signal =
        options.enabled() && options.wakeOnRelease() && b.backend instanceof ReleaseSignal s
            ? s
            : null;
    this.clock = b.clock;
    this.builder = b;
    this.log = log;
  }

  @Override
  public DistributedSemaphore semaphore(String name, int permits) {
    if (permits <= 0) {
      throw new IllegalArgumentException("permits must be positive but was " + permits);
    }
    String suffix = SlotBackend.lockKey("", permits - 1);
    LockKey.validate(name, options.maxKeyLength() - suffix.length());
    checkOpen();
    return new SlotSemaphore(this, name, permits);
  }

  @Override
  public String namespace() {
    return options.namespace();
  }

  @Override
  public int permitsHeld() {
    return held.get();
  }

  /** The count behind {@link #permitsHeld()}. */
  AtomicInteger heldCounter() {
    return held;
  }

  /**
   * Whether permits are entries of the backend's {@link PermitLeases} view: one kernel key per
   * semaphore, its slot the token modulo the permit count. Otherwise one kernel key per slot.
   */
  boolean isNative() {
    return permitLeases != null;
  }

  /** The kernel's lock for semaphores of {@code permits} permits. */
  synchronized DistributedLock lock(int permits) {
    checkOpen();
    return locks.computeIfAbsent(
        permits,
        n ->
            DistributedLock.builder(options, options.enabled() ? slotBackend(n) : null)
                .clock(clock)
                .listener(builder.listener)
                .logger(log)
                .build());
  }

  private LockBackend slotBackend(int permits) {
    if (permitLeases == null) {
      return new SlotBackend(backend, options.namespace(), permits);
    }
    LockBackend view =
        permitLeases
            .permitView(permits)
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        backend.name() + " offered a permit view for 1 permit but not " + permits));
    return new SlotBackend(view, options.namespace(), permits, true);
  }

  synchronized void checkOpen() {
    if (closed) {
      throw new IllegalStateException(
          "the semaphores of namespace '" + options.namespace() + "' are closed");
    }
  }

  LockingOptions options() {
    return options;
  }

  LockRetryPolicy defaultRetry() {
    return options.retry();
  }

  LockClock clock() {
    return clock;
  }

  /** The backend's release signal for slot keys, or null. */
  ReleaseSignal signal() {
    return signal;
  }

  /**
   * A wait between rounds, completed with {@code false} when the factory closes (at once when it is
   * closed already: registered after {@link #close()} took its copy, it is completed here).
   */
  void track(CompletableFuture<Boolean> wait) {
    long id = waitIds.incrementAndGet();
    waits.put(id, wait);
    var unused = wait.whenComplete((r, e) -> waits.remove(id));
    synchronized (this) {
      if (closed) {
        wait.complete(false);
      }
    }
  }

  @Override
  public void close() {
    List<DistributedLock> toClose;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      toClose = new ArrayList<>(locks.values());
    }
    for (CompletableFuture<Boolean> w : List.copyOf(waits.values())) {
      w.complete(false);
    }
    toClose.forEach(DistributedLock::close);
  }
}
