package io.hostloom.locking.memory;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.PermitLeases;
import io.hostloom.locking.spi.ReadWriteLeases;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.locking.spi.support.BackendArguments;
import io.hostloom.locking.spi.support.LeaseDecision;
import io.hostloom.locking.spi.support.LeaseOperation;
import io.hostloom.locking.spi.support.LeaseRounding;
import io.hostloom.locking.spi.support.LeaseRules;
import io.hostloom.locking.spi.support.PermitEntries;
import io.hostloom.locking.spi.support.ReadWriteEntries;
import io.hostloom.locking.spi.support.ReleaseWaitRegistry;
import io.hostloom.locking.spi.support.ViewRules;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link LockBackend} in this JVM's memory, with the same state machine a distributed backend
 * has: expiry by the injected clock's monotonic ticker, owner-checked everything, fencing tokens.
 * For tests and single-instance deployments; state is lost with the process.
 *
 * <p>Every operation is one atomic {@link ConcurrentMap#compute} on the key, deciding by the shared
 * {@link LeaseRules}, and completes synchronously (a compute is already the atomic step, so it does
 * not need the versioned-record loop of {@code VersionedRecordLockBackend}). Fencing tokens come
 * from one counter per backend instance, so they strictly increase per key (and across keys) for
 * the life of the instance. Expired records are removed lazily, when their key is next touched, and
 * by {@link #purgeExpired()}.
 *
 * <p>It is a {@link ReleaseSignal}: a successful {@link #release} or {@link #replace} wakes the
 * key's waiters with {@code true}, on the releasing thread, right after the change; their {@code
 * maxWait} runs on the injected clock's timer. Expiry announces nothing (as on a real server).
 *
 * <p>It has native semaphores and reader-writer locks ({@link PermitLeases}, {@link
 * ReadWriteLeases}): a view key's entries are one value of a map of their own, decided by the
 * support package's {@code PermitEntries} / {@code ReadWriteEntries} in one atomic step; a view
 * release wakes the waits of the view key.
 */
public final class InMemoryLockBackend
    implements LockBackend, ReleaseSignal, PermitLeases, ReadWriteLeases {
  private static final BackendArguments ARGUMENTS = BackendArguments.unbounded();

  private final LockClock clock;
  private final ConcurrentMap<String, Entry> leases = new ConcurrentHashMap<>();
  private final ReleaseWaitRegistry waiters;
  private final AtomicLong fencing = new AtomicLong();
  private final InMemoryViews<PermitEntries> permits;
  private final InMemoryViews<ReadWriteEntries> readWrites;

  private record Entry(String owner, String data, long expiresAtNanos, long token) {
    boolean liveAt(long now) {
      return LeaseRules.live(expiresAtNanos, now);
    }

    LeaseRecord toRecord(long now) {
      return new LeaseRecord(owner, data, Duration.ofNanos(expiresAtNanos - now), token);
    }
  }

  /** A backend on the system clock. */
  public InMemoryLockBackend() {
    this(LockClock.system());
  }

  /** A backend whose expiry follows {@code clock} (the testkit's manual clock in tests). */
  public InMemoryLockBackend(LockClock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.waiters = new ReleaseWaitRegistry(clock);
    this.permits =
        new InMemoryViews<>(
            clock, fencing, PermitEntries.empty(), PermitEntries::liveCount, this::announceRelease);
    this.readWrites =
        new InMemoryViews<>(
            clock,
            fencing,
            ReadWriteEntries.empty(),
            ReadWriteEntries::liveCount,
            this::announceRelease);
  }

  /**
   * The native permit view: each semaphore key's entries in one map entry of their own, every
   * operation one atomic step; see {@link PermitLeases}. Tokens come from the backend's counter.
   */
  @Override
  public Optional<LockBackend> permitView(int permits) {
    return Optional.of(
        new InMemoryViews.View<>(this.permits, "permit view", ViewRules.permits(permits)));
  }

  /**
   * The native reader-writer views: each lock key's entries in one map entry of their own, every
   * operation one atomic step; see {@link ReadWriteLeases}. Tokens come from the backend's counter.
   */
  @Override
  public Optional<Views> readWriteViews(int maxReaders) {
    return Optional.of(
        new Views(
            new InMemoryViews.View<>(readWrites, "read view", ViewRules.reads(maxReaders)),
            new InMemoryViews.View<>(readWrites, "write view", ViewRules.writes())));
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    ARGUMENTS.acquire(key, owner, data, lease);
    long leaseNanos = LeaseRounding.nanos(lease);
    AcquireOutcome[] result = new AcquireOutcome[1];
    leases.compute(
        key,
        (k, e) -> {
          long now = clock.nanoTime(); // inside the atomic step: linearizable expiry
          switch (decide(LeaseOperation.ACQUIRE, e, now, owner)) {
            case HELD:
              result[0] = AcquireOutcome.held(e.toRecord(now));
              return e;
            case EXTEND_SAME_TOKEN:
              result[0] = AcquireOutcome.granted(e.token);
              return new Entry(owner, e.data, now + leaseNanos, e.token);
            default: // GRANT_NEW_TOKEN
              long token = fencing.incrementAndGet();
              result[0] = AcquireOutcome.granted(token);
              return new Entry(owner, data, now + leaseNanos, token);
          }
        });
    return CompletableFuture.completedFuture(result[0]);
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    ARGUMENTS.extend(key, owner, lease);
    long leaseNanos = LeaseRounding.nanos(lease);
    ExtendOutcome[] result = new ExtendOutcome[1];
    leases.compute(
        key,
        (k, e) -> {
          long now = clock.nanoTime(); // inside the atomic step: linearizable expiry
          switch (decide(LeaseOperation.EXTEND, e, now, owner)) {
            case REFUSED_ABSENT:
              result[0] = ExtendOutcome.absent();
              return null; // evicts an expired entry
            case REFUSED_OTHER_OWNER:
              result[0] = ExtendOutcome.mismatch(e.toRecord(now));
              return e;
            default: // EXTEND_SAME_TOKEN
              result[0] = ExtendOutcome.succeeded();
              return new Entry(e.owner, e.data, now + leaseNanos, e.token);
          }
        });
    return CompletableFuture.completedFuture(result[0]);
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    ARGUMENTS.release(key, owner);
    ReleaseOutcome[] result = new ReleaseOutcome[1];
    leases.compute(
        key,
        (k, e) -> {
          long now = clock.nanoTime(); // inside the atomic step: linearizable expiry
          switch (decide(LeaseOperation.RELEASE, e, now, owner)) {
            case REFUSED_OTHER_OWNER:
              result[0] = ReleaseOutcome.mismatch(e.toRecord(now));
              return e;
            case RELEASE:
              result[0] = ReleaseOutcome.succeeded();
              return null;
            default: // REFUSED_ABSENT
              result[0] = ReleaseOutcome.absent();
              return null; // evicts an expired entry
          }
        });
    if (result[0].released()) {
      announceRelease(key);
    }
    return CompletableFuture.completedFuture(result[0]);
  }

  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    ARGUMENTS.replace(key, expectedOwner, newOwner, newData, lease);
    long leaseNanos = LeaseRounding.nanos(lease);
    ReplaceOutcome[] result = new ReplaceOutcome[1];
    leases.compute(
        key,
        (k, e) -> {
          long now = clock.nanoTime(); // inside the atomic step: linearizable expiry
          switch (decide(LeaseOperation.REPLACE, e, now, expectedOwner)) {
            case REFUSED_ABSENT:
              result[0] = ReplaceOutcome.absent();
              return null; // evicts an expired entry
            case REFUSED_OTHER_OWNER:
              result[0] = ReplaceOutcome.mismatch(e.toRecord(now));
              return e;
            default: // REPLACE_NEW_TOKEN
              long token = fencing.incrementAndGet();
              result[0] = ReplaceOutcome.replaced(token);
              return new Entry(newOwner, newData, now + leaseNanos, token);
          }
        });
    if (result[0].replaced()) {
      announceRelease(key);
    }
    return CompletableFuture.completedFuture(result[0]);
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    ARGUMENTS.read(key);
    LeaseRecord[] live = new LeaseRecord[1];
    leases.computeIfPresent(
        key,
        (k, e) -> {
          long now = clock.nanoTime(); // inside the atomic step, as in the writes
          if (!LeaseRules.live(e.expiresAtNanos, now)) {
            return null; // evicts only this expired entry: the step is atomic per key
          }
          live[0] = e.toRecord(now);
          return e;
        });
    return CompletableFuture.completedFuture(Optional.ofNullable(live[0]));
  }

  private static LeaseDecision decide(LeaseOperation op, Entry e, long now, String caller) {
    return e == null
        ? LeaseRules.decide(op, null, caller)
        : LeaseRules.decide(op, e.owner, e.expiresAtNanos, now, caller);
  }

  /**
   * Completes with {@code true} at the next successful {@link #release} or {@link #replace} of
   * {@code key} (on the thread that made it), with {@code false} when {@code maxWait} has passed on
   * this backend's clock; see {@link ReleaseSignal#awaitRelease}. Cancelling the future removes the
   * waiter and its timer.
   */
  @Override
  public CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait) {
    ARGUMENTS.awaitRelease(key, maxWait);
    return waiters.await(key, maxWait);
  }

  /** Wakes every waiter of {@code key}; called after the change, outside the atomic update. */
  private void announceRelease(String key) {
    waiters.wakeAll(key);
  }

  /** The number of {@link #awaitRelease} waits still open, for "nothing left behind" checks. */
  public int waiterCount() {
    return waiters.pending();
  }

  @Override
  public String name() {
    return "in-memory";
  }

  /**
   * The number of live (unexpired) leases: lock records, permits, readers and writers (a waiting
   * writer too).
   */
  public int liveCount() {
    long now = clock.nanoTime();
    int n = permits.liveCount() + readWrites.liveCount();
    for (Entry e : leases.values()) {
      if (e.liveAt(now)) {
        n++;
      }
    }
    return n;
  }

  /** Removes expired records (and view keys without live entries) now instead of later. */
  public void purgeExpired() {
    permits.purgeExpired();
    readWrites.purgeExpired();
    long now = clock.nanoTime();
    leases.forEach(
        (k, e) -> {
          if (!e.liveAt(now)) {
            leases.remove(k, e);
          }
        });
  }
}
