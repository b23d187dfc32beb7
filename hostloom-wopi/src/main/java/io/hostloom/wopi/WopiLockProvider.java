package io.hostloom.wopi;

import io.hostloom.locking.LockKey;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.locking.spi.support.CallerWaits;
import io.hostloom.locking.spi.support.SpiLimits;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * WOPI locks over any {@link LockBackend}: one lock per file, identified by an opaque lock id,
 * expiring {@link Builder#expiry(Duration) expiry} (30 minutes) after it was added, refreshed or
 * swapped. Several host instances sharing one backend agree on who holds each file.
 *
 * <h2>Mapping</h2>
 *
 * A file's lock is the backend record under {@code keyPrefix + fileId}, with {@code owner =
 * comparer.identity(lockId)} and {@code data = lockId}. Every method is <b>one atomic backend
 * operation</b>, on success and on failure, in which the backend itself compares owners; there is
 * no read-then-write between instances, and no read after a refusal:
 *
 * <table>
 *   <caption>Operations</caption>
 *   <tr><th>method</th><th>backend operation</th><th>on failure</th></tr>
 *   <tr><td>{@link #getLock}</td><td>read</td><td>-</td></tr>
 *   <tr><td>{@link #add}</td><td>acquire (same identity: refresh)</td><td>holder from the
 *       answer</td></tr>
 *   <tr><td>{@link #refresh}</td><td>extend</td><td>holder from the answer</td></tr>
 *   <tr><td>{@link #remove}</td><td>release</td><td>holder from the answer</td></tr>
 *   <tr><td>{@link #unlockAndRelock}</td><td>replace</td><td>current record from the
 *       answer</td></tr>
 * </table>
 *
 * <p>The lock a failure reports is the record the backend refused with, in the same atomic step
 * that decided the request: the lock current at that instant (empty when the file was not locked),
 * never a later value, and never the caller's own id (a record with an equal identity would have
 * matched). So the answers of several instances over one backend are linearizable.
 *
 * <h2>Expiry</h2>
 *
 * The backend's clock decides expiry. The provider asks for a lease of expiry + {@link
 * #EXPIRY_GRACE} (1 ms) so that, as in the WOPI reference ({@code created + 30 min < now} is
 * expired), a lock exactly 30:00 old is still valid on every backend with millisecond resolution or
 * finer, and expired 1 ms later.
 *
 * <h2>Blocking, failures, interruption</h2>
 *
 * Every method blocks until the backend answers; backends bound each call by their own command
 * timeout, so no call hangs forever. Invalid arguments throw {@link IllegalArgumentException}
 * before anything is sent. A backend failure throws {@link WopiLockUnavailableException} carrying
 * the failure kind. On interruption the method throws {@link WopiLockUnavailableException} (kind
 * TIMEOUT) with the interrupt flag set; the command is not cancelled and may still take effect.
 * Instances are immutable and thread-safe.
 */
public final class WopiLockProvider {
  /** The WOPI lock expiry: 30 minutes after Lock, RefreshLock or UnlockAndRelock. */
  public static final Duration DEFAULT_EXPIRY = Duration.ofMinutes(30);

  /** The default key prefix; keys are {@code prefix + fileId}. */
  public static final String DEFAULT_KEY_PREFIX = "wopi:lock:";

  /**
   * Added to the expiry in the lease requested from the backend, so a lock exactly the expiry old
   * is still valid (the WOPI reference's strict {@code <}) where the SPI expires a record at its
   * expiry instant.
   */
  public static final Duration EXPIRY_GRACE = Duration.ofMillis(1);

  /** The SPI's longest key, in UTF-16 units. */
  static final int MAX_KEY_LENGTH = SpiLimits.MAX_KEY_LENGTH;

  /** The SPI's longest owner, in UTF-16 units. */
  static final int MAX_IDENTITY_LENGTH = SpiLimits.MAX_OWNER_LENGTH;

  private final LockBackend backend;
  private final WopiLockComparer comparer;
  private final Duration expiry;
  private final Duration lease;
  private final LockClock clock;
  private final String keyPrefix;

  private WopiLockProvider(Builder b) {
    this.backend = b.backend;
    this.comparer = b.comparer;
    this.expiry = b.expiry;
    this.lease = b.expiry.plus(EXPIRY_GRACE);
    this.clock = b.clock;
    this.keyPrefix = b.keyPrefix;
  }

  /** A builder over {@code backend} with the defaults documented on each setter. */
  public static Builder builder(LockBackend backend) {
    return new Builder(backend);
  }

  /** A provider over {@code backend} with every default. */
  public static WopiLockProvider create(LockBackend backend) {
    return builder(backend).build();
  }

  /**
   * The live lock of {@code fileId}. One backend read.
   *
   * @return the lock, or empty when the file is not locked or its lock expired
   * @throws IllegalArgumentException when {@code fileId} is null, empty or too long
   * @throws WopiLockUnavailableException when the backend failed or the thread was interrupted
   */
  public Optional<WopiLockInfo> getLock(String fileId) {
    String key = key(fileId);
    return await("getLock", fileId, () -> backend.read(key)).map(r -> info(fileId, r));
  }

  /**
   * Locks {@code fileId} with {@code lockId} when it is not locked (or its lock expired). When it
   * is already locked with an equal id (under the comparer), refreshes that lock instead and keeps
   * its stored id (WOPI: a LOCK with the current id is a refresh). One backend acquire.
   *
   * @return success, or failure with the holder's lock
   * @throws IllegalArgumentException when an argument is invalid (nothing is stored then)
   * @throws WopiLockUnavailableException when the backend failed or the thread was interrupted
   */
  public WopiLockResult add(String fileId, String lockId) {
    String key = key(fileId);
    String owner = identity(lockId, "lockId");
    AcquireOutcome o = await("add", fileId, () -> backend.acquire(key, owner, lockId, lease));
    if (o.granted()) {
      return WopiLockResult.succeeded();
    }
    return WopiLockResult.failed(o.holder().map(r -> info(fileId, r)));
  }

  /**
   * Resets the expiry of the lock of {@code fileId} when its id equals {@code expectedLockId}
   * (under the comparer). One backend extend, also on failure.
   *
   * @return success, or failure with the current lock (empty when not locked)
   * @throws IllegalArgumentException when an argument is invalid (nothing is sent then)
   * @throws WopiLockUnavailableException when the backend failed or the thread was interrupted
   */
  public WopiLockResult refresh(String fileId, String expectedLockId) {
    String key = key(fileId);
    String owner = identity(expectedLockId, "expectedLockId");
    ExtendOutcome o = await("refresh", fileId, () -> backend.extend(key, owner, lease));
    if (o.extended()) {
      return WopiLockResult.succeeded();
    }
    return WopiLockResult.failed(o.holder().map(r -> info(fileId, r)));
  }

  /**
   * Unlocks {@code fileId} when its lock id equals {@code expectedLockId} (under the comparer). One
   * backend release, also on failure. Unlike the reference's unconditional remove, a stale caller
   * never removes another client's lock.
   *
   * @return success, or failure with the current lock (empty when not locked)
   * @throws IllegalArgumentException when an argument is invalid (nothing is sent then)
   * @throws WopiLockUnavailableException when the backend failed or the thread was interrupted
   */
  public WopiLockResult remove(String fileId, String expectedLockId) {
    String key = key(fileId);
    String owner = identity(expectedLockId, "expectedLockId");
    ReleaseOutcome o = await("remove", fileId, () -> backend.release(key, owner));
    if (o.released()) {
      return WopiLockResult.succeeded();
    }
    return WopiLockResult.failed(o.holder().map(r -> info(fileId, r)));
  }

  /**
   * Atomically replaces the lock of {@code fileId} by {@code newLockId}, with a fresh expiry, when
   * its current id equals {@code expectedLockId} (under the comparer): WOPI UnlockAndRelock. One
   * backend replace, also on failure.
   *
   * @return success, or failure with the current lock (empty when not locked)
   * @throws IllegalArgumentException when an argument is invalid (nothing is sent then)
   * @throws WopiLockUnavailableException when the backend failed or the thread was interrupted
   */
  public WopiLockResult unlockAndRelock(String fileId, String newLockId, String expectedLockId) {
    String key = key(fileId);
    String newOwner = identity(newLockId, "newLockId");
    String expectedOwner = identity(expectedLockId, "expectedLockId");
    ReplaceOutcome o =
        await(
            "unlockAndRelock",
            fileId,
            () -> backend.replace(key, expectedOwner, newOwner, newLockId, lease));
    if (o.replaced()) {
      return WopiLockResult.succeeded();
    }
    return WopiLockResult.failed(o.current().map(r -> info(fileId, r)));
  }

  /** The comparer deciding which lock ids are equal. */
  public WopiLockComparer comparer() {
    return comparer;
  }

  /** How long a lock lives after it was added, refreshed or swapped. */
  public Duration expiry() {
    return expiry;
  }

  /** The prefix of every backend key. */
  public String keyPrefix() {
    return keyPrefix;
  }

  /** The backend key of {@code fileId}'s lock. */
  public String keyOf(String fileId) {
    return key(fileId);
  }

  private WopiLockInfo info(String fileId, LeaseRecord r) {
    Instant now = clock.instant();
    // A record without TTL (Redis answers Long.MAX_VALUE ms) or written with a huge lease would
    // overflow Instant: report it as ending at Instant.MAX rather than fail the request.
    Duration untilMax = Duration.between(now, Instant.MAX);
    Instant leaseEnd =
        r.remaining().compareTo(untilMax) >= 0 ? Instant.MAX : now.plus(r.remaining());
    Instant expiresAt = leaseEnd.minus(EXPIRY_GRACE);
    return new WopiLockInfo(fileId, r.data(), expiresAt.minus(expiry), expiresAt);
  }

  private String key(String fileId) {
    Objects.requireNonNull(fileId, "fileId");
    if (fileId.isEmpty()) {
      throw new IllegalArgumentException("fileId must not be empty");
    }
    if (keyPrefix.length() + fileId.length() > MAX_KEY_LENGTH) {
      throw new IllegalArgumentException(
          "fileId must be at most "
              + (MAX_KEY_LENGTH - keyPrefix.length())
              + " characters but had "
              + fileId.length());
    }
    return keyPrefix + fileId;
  }

  private String identity(String lockId, String name) {
    WopiLockIds.requireValid(lockId, name);
    String id = comparer.identity(lockId);
    if (id == null
        || id.isEmpty()
        || id.length() > MAX_IDENTITY_LENGTH
        || !id.chars().allMatch(c -> c >= 0x20 && c <= 0x7E)) {
      throw new IllegalStateException(
          comparer
              + " broke the WopiLockComparer contract: an identity must be 1 to "
              + MAX_IDENTITY_LENGTH
              + " printable ASCII characters but was "
              + (id == null ? "null" : id.length() + " characters"));
    }
    return id;
  }

  private static <T> T await(String operation, String fileId, Supplier<CompletableFuture<T>> call) {
    CompletableFuture<T> future;
    long previous = CallerWaits.begin(CallerWaits.UNBOUNDED); // we block on the future below
    try {
      future = call.get();
    } catch (IllegalArgumentException | NullPointerException e) {
      throw e;
    } catch (RuntimeException e) {
      throw WopiLockUnavailableException.backendFailed(operation, fileId, e);
    } finally {
      CallerWaits.end(previous);
    }
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw WopiLockUnavailableException.interrupted(operation, fileId, e);
    } catch (ExecutionException e) {
      throw WopiLockUnavailableException.backendFailed(operation, fileId, e.getCause());
    } catch (CancellationException e) {
      throw WopiLockUnavailableException.backendFailed(operation, fileId, e);
    }
  }

  /**
   * Builds a {@link WopiLockProvider}; every setter validates its value. Not thread-safe; the built
   * provider is.
   */
  public static final class Builder {
    private final LockBackend backend;
    private WopiLockComparer comparer = WopiLockComparer.ordinal();
    private Duration expiry = DEFAULT_EXPIRY;
    private LockClock clock = LockClock.system();
    private String keyPrefix = DEFAULT_KEY_PREFIX;

    private Builder(LockBackend backend) {
      this.backend = Objects.requireNonNull(backend, "backend");
    }

    /** The lock-id comparer; default {@link WopiLockComparer#ordinal()}. */
    public Builder comparer(WopiLockComparer comparer) {
      this.comparer = Objects.requireNonNull(comparer, "comparer");
      return this;
    }

    /**
     * How long a lock lives after add, refresh or relock; default {@link #DEFAULT_EXPIRY} (30
     * minutes, the WOPI rule). Shorter values are for tests against real servers.
     *
     * @throws IllegalArgumentException when not positive
     */
    public Builder expiry(Duration expiry) {
      Objects.requireNonNull(expiry, "expiry");
      if (expiry.isNegative() || expiry.isZero()) {
        throw new IllegalArgumentException("expiry must be positive but was " + expiry);
      }
      this.expiry = expiry;
      return this;
    }

    /**
     * The clock used to report lock times ({@link WopiLockInfo}); never to decide expiry, which is
     * the backend's. Default {@link LockClock#system()}.
     */
    public Builder clock(LockClock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The prefix of every backend key ({@code prefix + fileId}); default {@link
     * #DEFAULT_KEY_PREFIX}. A non-empty prefix must not be the start of a kernel lock key ({@code
     * <namespace>:lock:<key>}, see {@link LockKey#canPrefixKernelKey}), so no file id can name a
     * kernel lock on a shared backend: {@code files:} is refused ({@code files:lock:x} is namespace
     * {@code files}'s key {@code x}), {@code files:wopi:} and {@code wopi:lock:} are fine. Empty
     * (the .NET Azure layout) names records by the raw file id, which shares the name space with
     * everything else on the backend: keep such a provider on a backend (container) of its own.
     *
     * @throws IllegalArgumentException when longer than 1024 characters, or a non-empty prefix a
     *     kernel key can start with
     */
    public Builder keyPrefix(String keyPrefix) {
      Objects.requireNonNull(keyPrefix, "keyPrefix");
      if (keyPrefix.length() > 1024) {
        throw new IllegalArgumentException(
            "keyPrefix must be at most 1024 characters but had " + keyPrefix.length());
      }
      if (!keyPrefix.isEmpty() && LockKey.canPrefixKernelKey(keyPrefix)) {
        throw new IllegalArgumentException(
            "keyPrefix must not be the start of a kernel lock key <namespace>:lock:<key>, or a file"
                + " id could name a kernel lock, but was '"
                + keyPrefix
                + "' (add a segment, e.g. '"
                + (keyPrefix.endsWith(":") ? keyPrefix : keyPrefix + ":")
                + "wopi:')");
      }
      this.keyPrefix = keyPrefix;
      return this;
    }

    public WopiLockProvider build() {
      return new WopiLockProvider(this);
    }
  }
}
