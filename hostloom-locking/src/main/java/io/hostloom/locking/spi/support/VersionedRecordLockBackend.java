package io.hostloom.locking.spi.support;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * The one generic {@link LockBackend} over a {@link VersionedRecordStore}: it owns the
 * read-decide-conditional-write loop, the decision table ({@link LeaseRules}), argument checks,
 * lease rounding, bounded retries and the failure kinds, so a store adapter only maps five
 * primitives onto its client.
 *
 * <h2>How each operation runs</h2>
 *
 * <ul>
 *   <li>{@code acquire}: {@link VersionedRecordStore#create create} first (one round trip for a
 *       free key); when the key has a record, decide on it: another owner's live lease answers
 *       "held"; the caller's own live lease is extended under its version with the same token and
 *       data; an expired or released record is overwritten under its version as a new grant.
 *   <li>{@code extend}, {@code release}, {@code replace}: read, decide, and write (compare-and-set
 *       or compare-and-delete) under the version read; refusals answer with what was read.
 *   <li>{@code read}: read; an expired record is evicted best effort ({@link
 *       VersionedRecordStore#evictExpired}).
 * </ul>
 *
 * A write that loses (the version moved) is never retried blindly: the backend decides again on the
 * fresh record (the one the store returned with the loss, or a new read). After {@link
 * Builder#maxLostWrites maxLostWrites} lost writes in one operation it gives up with {@code OTHER}:
 * each loss means another writer made progress, so this only bounds a pathological storm.
 *
 * <h2>Fencing, time, failures</h2>
 *
 * Fencing tokens come from the store ({@link Claim#isNewGrant()}): a grant or replace asks for a
 * new one, an extension keeps the token it read. Expiry is the store's clock ({@link
 * VersionedRecord#remaining}). Leases are rounded up to the store's {@link
 * VersionedRecordStore#leaseResolution() resolution}. Every operation completes within {@link
 * Builder#commandTimeout commandTimeout}: when the deadline passes the future fails {@code TIMEOUT}
 * and the pending store call's future is cancelled. A failed store call fails the operation with
 * the store's {@link VersionedRecordStore#failureKind kind}, except that {@code UNAVAILABLE}
 * becomes {@code OTHER} once a write of the same operation may have been applied. Cancelling a
 * returned future cancels the pending store call and sends nothing more.
 *
 * <p>Thread-safe and immutable. Compose it into a backend class that adds the store's health probe,
 * release signal and configuration: see {@code docs/writing-a-backend.md}.
 *
 * @param <V> the store's version type
 */
public final class VersionedRecordLockBackend<V> implements LockBackend {
  /** Default {@link Builder#maxLostWrites}. */
  public static final int DEFAULT_MAX_LOST_WRITES = 10;

  /** Default {@link Builder#commandTimeout}. */
  public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(5);

  private final VersionedRecordStore<V> store;
  private final String name;
  private final long timeoutNanos;
  private final int maxLostWrites;
  private final BackendArguments arguments;

  private VersionedRecordLockBackend(Builder<V> b) {
    this.store = b.store;
    this.name = b.name;
    this.timeoutNanos = b.commandTimeout.toNanos();
    this.maxLostWrites = b.maxLostWrites;
    this.arguments = b.arguments;
  }

  /** A builder over {@code store}. */
  public static <V> Builder<V> builder(VersionedRecordStore<V> store) {
    return new Builder<>(store);
  }

  @Override
  public String name() {
    return name;
  }

  /** The store this backend runs on. */
  public VersionedRecordStore<V> store() {
    return store;
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    arguments.acquire(key, owner, data, lease);
    store.checkStorable(owner, data);
    Duration l = LeaseRounding.ceil(lease, store.leaseResolution());
    Claim grant = Claim.newGrant(owner, data, l);
    return new Run<AcquireOutcome>(
            "acquire",
            key,
            r -> {
              switch (LeaseRules.decide(LeaseOperation.ACQUIRE, liveOwner(r), owner)) {
                case HELD:
                  return answer(AcquireOutcome.held(r.toLeaseRecord()));
                case EXTEND_SAME_TOKEN: // the owner again: new expiry, same token and data
                  Claim again = Claim.keeping(owner, r.data(), l, r.fencingToken());
                  return write(
                      () -> store.compareAndSet(key, r.version(), again), AcquireOutcome::granted);
                default: // GRANT_NEW_TOKEN: free, expired or released
                  return write(
                      () ->
                          r == null
                              ? store.create(key, grant)
                              : store.compareAndSet(key, r.version(), grant),
                      AcquireOutcome::granted);
              }
            })
        .start(write(() -> store.create(key, grant), AcquireOutcome::granted));
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    arguments.extend(key, owner, lease);
    Duration l = LeaseRounding.ceil(lease, store.leaseResolution());
    return new Run<ExtendOutcome>(
            "extend",
            key,
            r -> {
              switch (LeaseRules.decide(LeaseOperation.EXTEND, liveOwner(r), owner)) {
                case REFUSED_ABSENT:
                  return answer(ExtendOutcome.absent());
                case REFUSED_OTHER_OWNER:
                  return answer(ExtendOutcome.mismatch(r.toLeaseRecord()));
                default: // EXTEND_SAME_TOKEN
                  Claim claim = Claim.keeping(owner, r.data(), l, r.fencingToken());
                  return write(
                      () -> store.compareAndSet(key, r.version(), claim),
                      token -> ExtendOutcome.succeeded());
              }
            })
        .start(null);
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    arguments.release(key, owner);
    return new Run<ReleaseOutcome>(
            "release",
            key,
            r -> {
              switch (LeaseRules.decide(LeaseOperation.RELEASE, liveOwner(r), owner)) {
                case REFUSED_ABSENT:
                  return answer(ReleaseOutcome.absent());
                case REFUSED_OTHER_OWNER:
                  return answer(ReleaseOutcome.mismatch(r.toLeaseRecord()));
                default: // RELEASE
                  return write(
                      () -> store.compareAndDelete(key, r.version()),
                      token -> ReleaseOutcome.succeeded());
              }
            })
        .start(null);
  }

  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    arguments.replace(key, expectedOwner, newOwner, newData, lease);
    store.checkStorable(newOwner, newData);
    Claim claim =
        Claim.newGrant(newOwner, newData, LeaseRounding.ceil(lease, store.leaseResolution()));
    return new Run<ReplaceOutcome>(
            "replace",
            key,
            r -> {
              switch (LeaseRules.decide(LeaseOperation.REPLACE, liveOwner(r), expectedOwner)) {
                case REFUSED_ABSENT:
                  return answer(ReplaceOutcome.absent());
                case REFUSED_OTHER_OWNER:
                  return answer(ReplaceOutcome.mismatch(r.toLeaseRecord()));
                default: // REPLACE_NEW_TOKEN
                  return write(
                      () -> store.compareAndSet(key, r.version(), claim), ReplaceOutcome::replaced);
              }
            })
        .start(null);
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    arguments.read(key);
    return new Run<Optional<LeaseRecord>>(
            "read",
            key,
            r -> {
              if (r == null) {
                return answer(Optional.empty());
              }
              if (r.live()) {
                return answer(Optional.of(r.toLeaseRecord()));
              }
              // expired whatever the eviction does: its failure or success answers empty
              Decision<Optional<LeaseRecord>> evict =
                  write(() -> store.evictExpired(key, r.version()), token -> Optional.empty());
              evict.bestEffort = true;
              return evict;
            })
        .start(null);
  }

  private static String liveOwner(VersionedRecord<?> r) {
    return r != null && r.live() ? r.owner() : null;
  }

  private <T> Decision<T> answer(T answer) {
    return new Decision<>(answer, null, null);
  }

  private <T> Decision<T> write(
      Supplier<CompletableFuture<WriteResult<V>>> write, LongFunction<T> onWritten) {
    return new Decision<>(null, write, onWritten);
  }

  /** One decision on a record: an answer, or a conditional write and the answer it gives. */
  private final class Decision<T> {
    final T answer;
    final Supplier<CompletableFuture<WriteResult<V>>> write; // null: answer
    final LongFunction<T> onWritten;
    boolean bestEffort; // a failed write answers onWritten(0) instead of failing

    Decision(
        T answer, Supplier<CompletableFuture<WriteResult<V>>> write, LongFunction<T> onWritten) {
      this.answer = answer;
      this.write = write;
      this.onWritten = onWritten;
    }
  }

  /**
   * One operation's loop: decide on a record, write, and on a lost write decide again. Steps run
   * one at a time (each starts in the callback of the previous call), so plain fields suffice for
   * the loop's own state; {@code pending} is read by the deadline and by cancellation.
   */
  private final class Run<T> {
    final String operation;
    final String key;
    final Function<VersionedRecord<V>, Decision<T>> decide;
    final CompletableFuture<T> result = new CompletableFuture<>();
    final CompletableFuture<Void> deadline = new CompletableFuture<>();
    int lostWrites;
    volatile boolean changed;
    volatile CompletableFuture<?> pending;

    Run(String operation, String key, Function<VersionedRecord<V>, Decision<T>> decide) {
      this.operation = operation;
      this.key = key;
      this.decide = decide;
    }

    /** Starts with {@code first} (a write), or with a read when null. */
    CompletableFuture<T> start(Decision<T> first) {
      var unused =
          deadline
              .orTimeout(timeoutNanos, TimeUnit.NANOSECONDS)
              .whenComplete(
                  (v, e) -> {
                    if (e != null) {
                      fail(LockFailureKind.TIMEOUT, "no answer within " + timeout(), e);
                    }
                  });
      var unused2 =
          result.whenComplete(
              (v, e) -> {
                deadline.complete(null); // cancels the timer
                CompletableFuture<?> p = pending;
                if (e != null && p != null) {
                  p.cancel(false); // timed out or cancelled by the caller: abandon the call
                }
              });
      if (first == null) {
        read();
      } else {
        execute(first);
      }
      return result;
    }

    private void read() {
      call(() -> store.read(key), current -> decideOn(current.orElse(null)), this::failed);
    }

    private void decideOn(VersionedRecord<V> current) {
      Decision<T> d;
      try {
        d = decide.apply(current);
      } catch (RuntimeException e) {
        failed(e);
        return;
      }
      if (d.write == null) {
        result.complete(d.answer);
      } else {
        execute(d);
      }
    }

    private void execute(Decision<T> d) {
      if (d.bestEffort) {
        call(
            d.write,
            r -> {
              if (r.applied()) {
                result.complete(d.onWritten.apply(0));
              } else {
                lost(r);
              }
            },
            e -> result.complete(d.onWritten.apply(0)));
        return;
      }
      call(
          d.write,
          r -> {
            if (r.applied()) {
              result.complete(d.onWritten.apply(r.fencingToken()));
            } else {
              lost(r);
            }
          },
          this::failed);
    }

    private void lost(WriteResult<V> r) {
      if (r.changedSomething()) {
        changed = true;
      }
      if (++lostWrites >= maxLostWrites) {
        fail(
            LockFailureKind.OTHER,
            "gave up after " + lostWrites + " conditional writes lost to concurrent changes",
            null);
        return;
      }
      if (r.currentKnown()) {
        decideOn(r.current().orElse(null));
      } else {
        read();
      }
    }

    private <R> void call(
        Supplier<CompletableFuture<R>> call, Consumer<R> then, Consumer<Throwable> otherwise) {
      if (result.isDone()) {
        return; // timed out or cancelled: send nothing more
      }
      CompletableFuture<R> f;
      try {
        f = Objects.requireNonNull(call.get(), "the store returned no future");
      } catch (RuntimeException e) {
        otherwise.accept(e);
        return;
      }
      pending = f;
      var unused =
          f.whenComplete(
              (r, e) -> {
                if (e != null) {
                  otherwise.accept(e);
                } else {
                  try {
                    then.accept(r);
                  } catch (RuntimeException bug) {
                    failed(bug);
                  }
                }
              });
    }

    /** A store call failed: its kind is the store's. */
    private void failed(Throwable error) {
      Throwable e = error;
      while (e instanceof CompletionException && e.getCause() != null) {
        e = e.getCause();
      }
      if (e instanceof CancellationException) {
        fail(LockFailureKind.OTHER, "the store call was cancelled", e);
      } else {
        fail(store.failureKind(e), store.describe(e), e);
      }
    }

    private void fail(LockFailureKind kind, String why, Throwable cause) {
      if (result.isDone()) {
        return;
      }
      LockFailureKind k =
          kind == LockFailureKind.UNAVAILABLE && changed
              ? LockFailureKind.OTHER // an earlier write of this operation may have been applied
              : kind;
      result.completeExceptionally(
          new LockBackendException(
              k, name + " " + operation + " failed (" + k + "): " + why, cause));
    }
  }

  private Duration timeout() {
    return Duration.ofNanos(timeoutNanos);
  }

  /**
   * Builds a {@link VersionedRecordLockBackend}. Not thread-safe.
   *
   * @param <V> the store's version type
   */
  public static final class Builder<V> {
    private final VersionedRecordStore<V> store;
    private String name;
    private Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;
    private int maxLostWrites = DEFAULT_MAX_LOST_WRITES;
    private BackendArguments arguments = BackendArguments.unbounded();

    private Builder(VersionedRecordStore<V> store) {
      this.store = Objects.requireNonNull(store, "store");
      this.name = store.getClass().getSimpleName();
    }

    /** The backend's {@link LockBackend#name()}; default the store's class name. */
    public Builder<V> name(String name) {
      Objects.requireNonNull(name, "name");
      if (name.isBlank()) {
        throw new IllegalArgumentException("name must not be blank");
      }
      this.name = name;
      return this;
    }

    /**
     * The bound on one whole operation, every store call included; default {@link
     * #DEFAULT_COMMAND_TIMEOUT} (5 s).
     *
     * @throws IllegalArgumentException when not positive
     */
    public Builder<V> commandTimeout(Duration commandTimeout) {
      Objects.requireNonNull(commandTimeout, "commandTimeout");
      if (commandTimeout.isNegative() || commandTimeout.isZero()) {
        throw new IllegalArgumentException(
            "commandTimeout must be positive but was " + commandTimeout);
      }
      this.commandTimeout = commandTimeout;
      return this;
    }

    /**
     * How many lost conditional writes one operation tolerates before it fails {@code OTHER};
     * default {@link #DEFAULT_MAX_LOST_WRITES} (10).
     *
     * @throws IllegalArgumentException when below 1
     */
    public Builder<V> maxLostWrites(int maxLostWrites) {
      if (maxLostWrites < 1) {
        throw new IllegalArgumentException(
            "maxLostWrites must be at least 1 but was " + maxLostWrites);
      }
      this.maxLostWrites = maxLostWrites;
      return this;
    }

    /**
     * The argument checks, with the store's upper bounds; default {@link
     * BackendArguments#unbounded()}.
     */
    public Builder<V> arguments(BackendArguments arguments) {
      this.arguments = Objects.requireNonNull(arguments, "arguments");
      return this;
    }

    public VersionedRecordLockBackend<V> build() {
      return new VersionedRecordLockBackend<>(this);
    }
  }
}
