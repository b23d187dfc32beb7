package io.hostloom.redis;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.BackendHealthProbe;
import io.hostloom.locking.spi.BackendWarmUp;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.PermitLeases;
import io.hostloom.locking.spi.ReadWriteLeases;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.locking.spi.support.BackendArguments;
import io.hostloom.locking.spi.support.LeaseRounding;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.BaseRedisAsyncCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.NestedMultiOutput;
import io.lettuce.core.output.ValueOutput;
import io.lettuce.core.protocol.CommandKeyword;
import io.lettuce.core.protocol.CommandType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * A {@link LockBackend} over Redis (6.2 and later, 7.x, Valkey; standalone, Sentinel or Cluster)
 * through Lettuce's asynchronous API.
 *
 * <p><b>One round trip per operation.</b> Each operation is one Lua script sent as {@code EVALSHA};
 * only when the server does not know the script (first use after a restart or {@code SCRIPT FLUSH})
 * does a {@code NOSCRIPT} answer cost a second round trip with {@code EVAL}. Scripts run
 * atomically, compare owners on the server and let the server's clock decide expiry ({@code
 * PEXPIRE}, {@code PTTL}). Lease durations are rounded <em>up</em> to whole milliseconds (minimum 1
 * ms). See {@link RedisKeyLayout} for the keys and the module README for when fencing tokens hold.
 * With {@link Builder#fencingTokens} off on the default layout, an acquire is first a plain {@code
 * SET NX PX} (a grant of a free key needs nothing more) and only when the key exists the acquire
 * script (a second round trip: refusals, own refreshes); with {@link Builder#releaseNotifications}
 * off too, release is a smaller script with no release channel.
 *
 * <p><b>Bounded calls and failures.</b> Every command is bounded by the command timeout (default
 * {@value #DEFAULT_COMMAND_TIMEOUT_SECONDS} s; the fallback {@code EVAL} runs inside the same
 * bound; it fires within a tick of Lettuce's timer). Futures complete exceptionally only with
 * {@link io.hostloom.locking.spi.LockBackendException}: {@code UNAVAILABLE} when the command never
 * left this process (not connected, connect failed, closed), {@code TIMEOUT} when no answer came in
 * time, {@code OTHER} otherwise (including a connection that dropped after the command was
 * written). Futures complete on Lettuce's I/O threads.
 *
 * <p><b>Connections.</b> Built from a URI, the backend owns its Lettuce client: it connects on
 * first use (so it can be built while Redis is down), reconnects by itself, rejects commands issued
 * while disconnected instead of queueing them, and shuts the client down on {@link #close()}. A
 * client or connection supplied by the user is used as configured and never closed by this backend.
 * Lettuce's auto-reconnect can re-send a command that was in flight when the connection broke (it
 * does with its default options): acquire is idempotent (a re-sent grant meets the caller's own
 * lease), and a re-sent release or replace (the client counts how often it wrote the command) that
 * answers "absent" or "someone else's" is reported {@code TIMEOUT}, as its first run may have taken
 * effect.
 *
 * <p><b>Release signal.</b> Release and replace publish on the key's release channel inside their
 * script. As a {@link ReleaseSignal}, the backend listens to all release channels of its prefix
 * with one pattern subscription on a dedicated pub/sub connection, opened by the first {@link
 * #awaitRelease} call; a wait is then purely local (no command per wait), and a release wakes one
 * wait of its key per backend. This needs a client (not a bare connection) and {@link
 * Builder#releaseNotifications} on.
 */
public final class RedisLockBackend
    implements LockBackend,
        BackendHealthProbe,
        BackendWarmUp,
        ReleaseSignal,
        PermitLeases,
        ReadWriteLeases,
        AutoCloseable {
  static final int DEFAULT_COMMAND_TIMEOUT_SECONDS = 5;

  /** Default bound on every Redis command: {@value #DEFAULT_COMMAND_TIMEOUT_SECONDS} s. */
  public static final Duration DEFAULT_COMMAND_TIMEOUT =
      Duration.ofSeconds(DEFAULT_COMMAND_TIMEOUT_SECONDS);

  /** Default bound on a health probe: 2 s. */
  public static final Duration DEFAULT_HEALTH_TIMEOUT = Duration.ofSeconds(2);

  /** Default time a fencing counter outlives the last lease of its key: 1 day. */
  public static final Duration DEFAULT_FENCE_RETENTION = Duration.ofDays(1);

  // 2^50 ms (35 000 years): "forever" that Redis and Lua doubles both hold exactly
  private static final long MAX_TTL_MILLIS = 1L << 50;

  // what a refused acquire adds to the waiter flag's life beyond the waits' end (late timers)
  static final long WAITER_FLAG_MARGIN_MILLIS = 100;

  private static final Wtf8Codec CODEC = Wtf8Codec.INSTANCE;
  static final BackendArguments ARGUMENTS = BackendArguments.unbounded();

  private final ScriptClient scripts;
  private final ReleaseSubscription releases; // null: no client, or notifications off
  private final RedisKeyLayout layout;
  private final Duration commandTimeout;
  private final Duration healthTimeout;
  private final long fenceRetentionMillis;
  private final boolean fencingTokens;
  private final boolean publishReleases;
  private final String
      announceMode; // "a": every release publishes, "w": while a waiter flag is set
  private final Supplier<CompletableFuture<?>> shutdown;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final boolean plainSetAcquire; // no tokens, default layout: a grant is one SET NX PX
  private final boolean unannouncedRelease; // and no notifications: the lean release script

  private static final AcquireOutcome UNFENCED_GRANT = AcquireOutcome.granted(1);

  private RedisLockBackend(Builder b, RedisConnections w) {
    this.scripts = new ScriptClient(w.commands(), b.commandTimeout);
    this.layout = b.layout != null ? b.layout : RedisKeyLayout.withPrefix(b.keyPrefix);
    this.releases =
        w.pubSub() == null || !b.releaseNotifications
            ? null
            : new ReleaseSubscription(w.pubSub(), layout.releasePattern(), b.commandTimeout);
    this.commandTimeout = b.commandTimeout;
    this.healthTimeout = b.healthTimeout;
    this.fenceRetentionMillis =
        Math.min(LeaseRounding.ceilMillis(b.fenceRetention), MAX_TTL_MILLIS);
    this.fencingTokens = b.fencingTokens;
    this.publishReleases = b.releaseNotifications;
    this.announceMode = b.announceEveryRelease ? "a" : "w";
    this.shutdown = w.shutdown();
    this.plainSetAcquire = !fencingTokens && !layout.compatible();
    this.unannouncedRelease = plainSetAcquire && !publishReleases;
  }

  /** A builder; give it exactly one of a URI, a client or a connection. */
  public static Builder builder() {
    return new Builder();
  }

  /** The key layout, to find a lock's keys with {@code redis-cli}. */
  public RedisKeyLayout layout() {
    return layout;
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    ARGUMENTS.acquire(key, owner, data, lease);
    long leaseMs = leaseMillis(lease);
    String lk = layout.leaseKey(key);
    return plainSetAcquire
        ? setIfAbsent(key, lk, owner, data, leaseMs)
        : scriptAcquire(key, lk, owner, data, leaseMs);
  }

  private CompletableFuture<AcquireOutcome> scriptAcquire(
      String key, String lk, String owner, String data, long leaseMs) {
    return eval(
        "acquire",
        LeaseScripts.ACQUIRE,
        () -> new NestedMultiOutput<>(CODEC),
        List.of(lk, layout.fenceKeyOf(lk), layout.waitersKeyOf(lk)),
        List.of(owner, data, Long.toString(leaseMs), fenceTtl(leaseMs), waitHorizon(key)),
        (r, replayed) -> acquired(r));
  }

  /**
   * Without fencing tokens on the default layout, a grant of a free key needs no script: {@code SET
   * lease value NX PX} writes the value the acquire script would (token 1). Anything else (the key
   * exists: held, the caller's own lease to refresh, a lease whose expiry is this very millisecond)
   * is the acquire script's to decide, in a second round trip: the refusal's holder record and
   * remaining lease then come from one atomic read, as the SPI asks. A {@code SET} that Lettuce
   * re-sent after its first run granted meets the caller's own lease and is refreshed there.
   */
  private CompletableFuture<AcquireOutcome> setIfAbsent(
      String key, String lk, String owner, String data, long leaseMs) {
    ScriptClient.WrittenArgs args = new ScriptClient.WrittenArgs();
    args.addKey(lk).add(unfencedValue(owner, data)).add(CommandKeyword.NX).add("PX").add(leaseMs);
    CompletableFuture<AcquireOutcome> result = new CompletableFuture<>();
    var unused =
        scripts
            .command(
                "acquire",
                CommandType.SET,
                new ValueOutput<>(CODEC),
                args,
                (reply, replayed) -> reply != null) // "OK", or nil: not set
            .whenComplete(
                (set, failure) -> {
                  if (failure != null) {
                    result.completeExceptionally(failure);
                  } else if (set) {
                    result.complete(UNFENCED_GRANT);
                  } else {
                    var unused2 =
                        scriptAcquire(key, lk, owner, data, leaseMs)
                            .whenComplete(
                                (o, f) -> {
                                  if (f != null) {
                                    result.completeExceptionally(f);
                                  } else {
                                    result.complete(o);
                                  }
                                });
                  }
                });
    return result;
  }

  // the acquire script's value (LeaseScripts: token|owner bytes|owner data) with token 1, each
  // part encoded alone as the script joins them (a lone surrogate at the seam stays lone)
  static byte[] unfencedValue(String owner, String data) {
    byte[] o = Wtf8Codec.encode(owner);
    byte[] d = Wtf8Codec.encode(data);
    byte[] head = ("1|" + o.length + "|").getBytes(StandardCharsets.US_ASCII);
    byte[] v = Arrays.copyOf(head, head.length + o.length + d.length);
    System.arraycopy(o, 0, v, head.length, o.length);
    System.arraycopy(d, 0, v, head.length + o.length, d.length);
    return v;
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    ARGUMENTS.extend(key, owner, lease);
    long leaseMs = leaseMillis(lease);
    String lk = layout.leaseKey(key);
    return eval(
        "extend",
        LeaseScripts.EXTEND,
        () -> new NestedMultiOutput<>(CODEC),
        List.of(lk, layout.fenceKeyOf(lk)),
        List.of(owner, Long.toString(leaseMs), fenceTtl(leaseMs)),
        (r, replayed) ->
            switch (status(r)) {
              case 1 -> ExtendOutcome.succeeded();
              case 2 -> ExtendOutcome.mismatch(record(r, 1));
              case 0 -> ExtendOutcome.absent();
              default -> throw unexpectedReply("extend", r);
            });
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    ARGUMENTS.release(key, owner);
    String lk = layout.leaseKey(key);
    if (unannouncedRelease) {
      return eval(
          "release",
          LeaseScripts.RELEASE_UNANNOUNCED,
          () -> new NestedMultiOutput<>(CODEC),
          List.of(lk),
          List.of(owner),
          RedisLockBackend::released);
    }
    return eval(
        "release",
        LeaseScripts.RELEASE,
        () -> new NestedMultiOutput<>(CODEC),
        List.of(lk, layout.waitersKeyOf(lk)),
        List.of(owner, channel(key), announceMode),
        RedisLockBackend::released);
  }

  /** An acquire script's reply: {@code {1, token}} granted, {@code {0, record...}} held. */
  static AcquireOutcome acquired(List<Object> r) {
    return granted(r) ? AcquireOutcome.granted(token(r.get(1))) : AcquireOutcome.held(record(r, 1));
  }

  /** A read script's reply: empty, or the record. */
  static Optional<LeaseRecord> readRecord(List<Object> r) {
    return r.isEmpty() ? Optional.empty() : Optional.of(record(r, 0));
  }

  /**
   * A native view's extend reply ({@code {1}} extended, {@code {0}} no live entry of the owner).
   */
  static ExtendOutcome entryExtended(List<Object> r, String op) {
    return switch (status(r)) {
      case 1 -> ExtendOutcome.succeeded();
      case 0 -> ExtendOutcome.absent();
      default -> throw unexpectedReply(op, r);
    };
  }

  /**
   * A native view's release reply ({@code {1}} released, {@code {0}} no live entry of the owner); a
   * re-sent release's "absent" may describe what its own first run left, so it is in doubt.
   */
  static ReleaseOutcome entryReleased(List<Object> r, boolean replayed, String op) {
    return switch (status(r)) {
      case 1 -> ReleaseOutcome.succeeded();
      case 0 -> replayed ? inDoubt(op) : ReleaseOutcome.absent();
      default -> throw unexpectedReply(op, r);
    };
  }

  private static ReleaseOutcome released(List<Object> r, boolean replayed) {
    return switch (status(r)) {
      case 1 -> ReleaseOutcome.succeeded();
      case 2 -> replayed ? inDoubt("release") : ReleaseOutcome.mismatch(record(r, 1));
      case 0 -> replayed ? inDoubt("release") : ReleaseOutcome.absent();
      default -> throw unexpectedReply("release", r);
    };
  }

  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    ARGUMENTS.replace(key, expectedOwner, newOwner, newData, lease);
    long leaseMs = leaseMillis(lease);
    String lk = layout.leaseKey(key);
    return eval(
        "replace",
        LeaseScripts.REPLACE,
        () -> new NestedMultiOutput<>(CODEC),
        List.of(lk, layout.fenceKeyOf(lk), layout.waitersKeyOf(lk)),
        List.of(
            expectedOwner,
            newOwner,
            newData,
            Long.toString(leaseMs),
            fenceTtl(leaseMs),
            channel(key),
            announceMode),
        (r, replayed) ->
            switch (status(r)) {
              case 1 -> ReplaceOutcome.replaced(token(r.get(1)));
              case 2 -> replayed ? inDoubt("replace") : ReplaceOutcome.mismatch(record(r, 1));
              case 0 -> replayed ? inDoubt("replace") : ReplaceOutcome.absent();
              default -> throw unexpectedReply("replace", r);
            });
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    ARGUMENTS.read(key);
    return eval(
        "read",
        LeaseScripts.READ,
        () -> new NestedMultiOutput<>(CODEC),
        List.of(layout.leaseKey(key)),
        List.of(),
        (r, replayed) -> readRecord(r));
  }

  @Override
  public String name() {
    return "redis";
  }

  /**
   * {@inheritDoc}
   *
   * <p>On the default layout: a view whose semaphore is one sorted set of holders and one hash of
   * entries in the key's hash slot (see {@link RedisKeyLayout#permitHoldersKey}), each operation
   * one script, and whose releases wake {@link #awaitRelease} waits of the semaphore's key. Tokens
   * come from the key's counter even with {@link Builder#fencingTokens} off (the slot is the token
   * modulo the count). Empty on a compatibility layout (its old library has no such semaphore).
   */
  @Override
  public Optional<LockBackend> permitView(int permits) {
    if (permits < 1) {
      throw new IllegalArgumentException("permits must be positive but was " + permits);
    }
    return layout.compatible()
        ? Optional.empty()
        : Optional.of(new RedisPermitLeases(this, permits));
  }

  /**
   * {@inheritDoc}
   *
   * <p>On the default layout: views whose lock is one sorted set of readers and one hash of entries
   * (readers' and the writer's) in the key's hash slot (see {@link
   * RedisKeyLayout#readWriteReadersKey}), each operation one script, and whose releases wake {@link
   * #awaitRelease} waits of the lock's key. Tokens come from the key's counter even with {@link
   * Builder#fencingTokens} off. Empty on a compatibility layout (its old library has no such lock).
   */
  @Override
  public Optional<Views> readWriteViews(int maxReaders) {
    if (maxReaders < 1) {
      throw new IllegalArgumentException("maxReaders must be positive but was " + maxReaders);
    }
    return layout.compatible()
        ? Optional.empty()
        : Optional.of(
            new Views(
                new RedisReadWriteLeases(this, false, maxReaders),
                new RedisReadWriteLeases(this, true, maxReaders)));
  }

  /**
   * {@inheritDoc}
   *
   * <p>Costs no command: the wait is registered locally and woken by the backend's one pattern
   * subscription ({@link RedisKeyLayout#releasePattern()}), which the first call starts. A wait
   * that begins before that subscription is confirmed is held and completes with {@code true} as
   * soon as it is (the caller re-checks the key once no release can be missed), or with {@code
   * false} if it cannot be started. While its connection is down, shortly after a failed start,
   * without a client (a bare connection was supplied), with {@link Builder#releaseNotifications}
   * off and after {@link #close()}, the future completes with {@code false} at once. One announced
   * release wakes <b>one</b> wait of its key in this backend (the oldest pending), not all: the
   * woken waiter wins and announces its own release later, or loses to a holder that will (the
   * release of a native reader-writer key wakes every wait of it: its readers and writers wait on
   * one key, see {@link #readWriteViews}). When the subscription comes back after a reconnect,
   * pending waits complete with {@code true} (releases while it was down cannot be ruled out).
   * {@code maxWait} runs on the JDK's shared delay timer; completion happens on a Lettuce I/O
   * thread, that timer's thread, or the caller's.
   */
  @Override
  public CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait) {
    ARGUMENTS.awaitRelease(key, maxWait);
    if (releases == null || maxWait.isZero() || closed.get()) {
      return CompletableFuture.completedFuture(false);
    }
    return releases.await(layout.releaseChannel(key), maxWait);
  }

  /**
   * How long a refused acquire of {@code key} keeps the waiter flag: until the last wait pending
   * here on the key ends, plus a margin for timers firing late; {@code "0"} when nobody here waits
   * on it (a WOPI LOCK, a lock with wake-on-release off, a {@code tryAcquire} without a wait).
   */
  String waitHorizon(String key) {
    if (releases == null || releases.noWaits()) {
      return "0";
    }
    Optional<Duration> left = releases.pendingFor(layout.releaseChannel(key));
    if (left.isEmpty()) {
      return "0";
    }
    long ms = Math.min(MAX_TTL_MILLIS, left.get().toMillis() + WAITER_FLAG_MARGIN_MILLIS);
    return Long.toString(ms);
  }

  /**
   * Connects now instead of on the first operation: opens the command connection, loads the lease
   * scripts and the permit view's four ({@code SCRIPT LOAD}, so no first call meets {@code
   * NOSCRIPT}) and, with release notifications on and a client to open it with, starts the release
   * subscription. Without it, the first operation pays for connecting (TCP, {@code HELLO}, TLS and
   * {@code AUTH} where configured) and each script's first use on a server that never saw it costs
   * one extra round trip ({@code NOSCRIPT}, then {@code EVAL}).
   *
   * <p>Never blocks. The future completes when all of that is done, or exceptionally with a {@link
   * LockBackendException} ({@code UNAVAILABLE} when connecting failed, {@code TIMEOUT} when a step
   * got no answer within the command timeout). A failed warm-up changes nothing: operations still
   * connect on first use, and the next warm-up tries again.
   */
  @Override
  public CompletableFuture<Void> warmUp() {
    if (closed.get()) {
      return CompletableFuture.failedFuture(
          LockBackendException.unavailable("Redis backend is closed", null));
    }
    CompletableFuture<Void> loaded = scripts.warmUp(LeaseScripts.ALL);
    CompletableFuture<Void> subscribed =
        releases == null ? CompletableFuture.completedFuture(null) : releases.subscribe();
    CompletableFuture<Void> result = new CompletableFuture<>();
    var unused =
        CompletableFuture.allOf(loaded, subscribed)
            .whenComplete(
                (v, t) -> {
                  if (t == null) {
                    result.complete(null);
                  } else {
                    result.completeExceptionally(RedisFailures.map("warm-up", t));
                  }
                });
    return result;
  }

  /** Whether release waits are live now: the pattern subscription is confirmed and connected. */
  boolean releaseSignalUp() {
    return releases != null && releases.isSubscribed();
  }

  /** The release waits still pending. */
  int releaseWaiters() {
    return releases == null ? 0 : releases.waiterCount();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Sends {@code PING} (connecting first if needed), bounded by the health timeout (default 2
   * s). The description names no endpoint, user or key.
   */
  @Override
  public CompletableFuture<BackendHealth> checkHealth() {
    CompletableFuture<BackendHealth> result = new CompletableFuture<>();
    long start = System.nanoTime();
    try {
      var unused =
          scripts
              .ping()
              .whenComplete(
                  (pong, t) -> {
                    if (t == null) {
                      double ms = (System.nanoTime() - start) / 1e6;
                      result.complete(
                          BackendHealth.healthy(
                              String.format(Locale.ROOT, "Redis reachable (PING %.1f ms)", ms)));
                    } else {
                      Throwable cause = RedisFailures.unwrap(t);
                      Throwable root =
                          cause instanceof LockBackendException && cause.getCause() != null
                              ? cause.getCause()
                              : cause;
                      result.complete(
                          BackendHealth.unhealthy(
                              "Redis unreachable ("
                                  + RedisFailures.kindOf(cause)
                                  + ": "
                                  + root.getClass().getSimpleName()
                                  + ")"));
                    }
                  });
    } catch (RuntimeException e) {
      result.complete(
          BackendHealth.unhealthy("Redis probe failed: " + e.getClass().getSimpleName()));
    }
    result.completeOnTimeout(
        BackendHealth.unhealthy("Redis did not answer PING within " + healthTimeout),
        healthTimeout.toNanos(),
        TimeUnit.NANOSECONDS);
    return result;
  }

  /**
   * Closes what this backend opened: its connections and, when built from a URI, its client. A
   * user's client or connection stays open. Commands in flight fail ({@code OTHER}); later calls
   * fail with {@code UNAVAILABLE}; pending {@link #awaitRelease} waits complete with {@code false}.
   * Blocks up to about 5 s while Lettuce shuts down (do not call it from a Lettuce I/O thread).
   * Idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    CompletableFuture<Void> pubSubClosed =
        releases == null ? CompletableFuture.completedFuture(null) : releases.close();
    // a client we own is shut down only after our connections closed: no double close
    CompletableFuture<?> done =
        CompletableFuture.allOf(pubSubClosed, scripts.close())
            .completeOnTimeout(null, 2, TimeUnit.SECONDS)
            .thenCompose(v -> shutdown.get());
    try {
      done.get(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // best effort: nothing of ours is left that a caller could use
    }
  }

  // ---- one script, one round trip; failures get their kind, replies their shape ----

  <T, R> CompletableFuture<R> eval(
      String operation,
      LeaseScripts.Script script,
      Supplier<CommandOutput<String, String, T>> output,
      List<String> keys,
      List<String> argv,
      ScriptClient.Parser<T, R> parse) {
    return scripts.run(operation, script, output, keys, argv, parse);
  }

  /**
   * A release or replace that Lettuce re-sent after a reconnect and that answered "absent" or
   * "someone else's": its first run may have released or replaced, and the reply describes what
   * that run left. Reported as {@code TIMEOUT} ("may have been applied"), which the kernel and the
   * WOPI service already handle for a call whose answer was lost; a success is reported as is.
   */
  static <R> R inDoubt(String operation) {
    throw LockBackendException.timeout(
        "Redis "
            + operation
            + " was re-sent after a reconnect and its first run may have taken effect",
        null);
  }

  // ---- replies ----

  static boolean granted(List<Object> reply) {
    return (Long) reply.get(0) == 1L;
  }

  // the leading status of extend, release and replace: 1 done, 2 another owner's, 0 absent
  // a reply the scripts never send: script and decoder disagree, never a lease decision
  static IllegalStateException unexpectedReply(String op, List<Object> reply) {
    return new IllegalStateException("unexpected " + op + " script reply " + reply);
  }

  static int status(List<Object> reply) {
    return ((Long) reply.get(0)).intValue();
  }

  static long token(Object value) {
    return Long.parseLong((String) value);
  }

  // {token, owner, data, pttl} starting at index from
  static LeaseRecord record(List<Object> reply, int from) {
    long pttl = (Long) reply.get(from + 3);
    // a lease without expiry was not written by these scripts; it never expires
    Duration remaining = pttl > 0 ? Duration.ofMillis(pttl) : Duration.ofMillis(Long.MAX_VALUE);
    return new LeaseRecord(
        (String) reply.get(from + 1),
        (String) reply.get(from + 2),
        remaining,
        token(reply.get(from)));
  }

  // ---- arguments ----

  String channel(String key) {
    return publishReleases ? layout.releaseChannel(key) : "";
  }

  // "0": no fencing tokens, no counter
  private String fenceTtl(long leaseMs) {
    return fencingTokens ? counterTtl(leaseMs) : "0";
  }

  /** The PX of a counter, whatever {@link Builder#fencingTokens}: lease + fence retention. */
  String counterTtl(long leaseMs) {
    return Long.toString(Math.min(leaseMs + fenceRetentionMillis, MAX_TTL_MILLIS));
  }

  String announceMode() {
    return announceMode;
  }

  /** {@code lease} in whole milliseconds, rounded up (never 0), at most 2^50. */
  static long leaseMillis(Duration lease) {
    BackendArguments.lease(lease);
    return Math.min(LeaseRounding.ceilMillis(lease), MAX_TTL_MILLIS);
  }

  @Override
  public String toString() {
    return "RedisLockBackend[" + layout + ", commandTimeout=" + commandTimeout + "]";
  }

  // ---- construction ----

  /**
   * Builds a {@link RedisLockBackend}. Exactly one source is required: {@link #uri}, {@link
   * #client} (with {@link #uri}), {@link #clusterClient} or {@link #connection}. Values are checked
   * when set; {@link #build()} checks the combination.
   */
  public static final class Builder {
    private RedisURI uri;
    private RedisClient client;
    private RedisClusterClient clusterClient;
    private StatefulConnection<?, ?> connection;
    private BaseRedisAsyncCommands<?, ?> connectionAsync;
    private Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;
    private Duration healthTimeout = DEFAULT_HEALTH_TIMEOUT;
    private Duration fenceRetention = DEFAULT_FENCE_RETENTION;
    private String keyPrefix = RedisKeyLayout.DEFAULT_PREFIX;
    private RedisKeyLayout layout;
    private boolean releaseNotifications = true;
    private boolean announceEveryRelease;
    private boolean fencingTokens = true;

    private Builder() {}

    /**
     * Where Redis is: {@code redis://[user:password@]host[:port][/db]}, {@code rediss://...} (TLS)
     * or {@code redis-sentinel://host[:port][,host2[:port2]][/db]#masterName}. Without {@link
     * #client}, the backend creates and owns its client.
     *
     * @throws IllegalArgumentException when Lettuce cannot parse it
     */
    public Builder uri(String uri) {
      Objects.requireNonNull(uri, "uri");
      try {
        return uri(RedisURI.create(uri));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(
            "uri must be a redis://, rediss:// or redis-sentinel:// URI but could not be parsed: "
                + e.getClass().getSimpleName(),
            e);
      }
    }

    /**
     * As {@link #uri(String)}. The object is used as it is and never changed: do not change it
     * afterwards either. (Not copied: Lettuce 6.8's {@code RedisURI.builder(RedisURI)} drops
     * Sentinel nodes.)
     */
    public Builder uri(RedisURI uri) {
      this.uri = Objects.requireNonNull(uri, "uri");
      return this;
    }

    /**
     * Uses the user's client to connect to {@link #uri}; the client is not shut down by {@link
     * #close()}. Its options apply as they are: for exact error kinds set {@code
     * disconnectedBehavior(REJECT_COMMANDS)} (see the README).
     */
    public Builder client(RedisClient client) {
      this.client = Objects.requireNonNull(client, "client");
      return this;
    }

    /** Uses the user's Redis Cluster client (its own seed URIs); it is not shut down by us. */
    public Builder clusterClient(RedisClusterClient clusterClient) {
      this.clusterClient = Objects.requireNonNull(clusterClient, "clusterClient");
      return this;
    }

    /**
     * Uses the user's open connection, of any codec, as is; it is not closed by us. Without a
     * client there is no pub/sub connection: {@link #awaitRelease} answers {@code false} and
     * waiters poll (releases are still published for other instances).
     */
    public Builder connection(StatefulRedisConnection<?, ?> connection) {
      this.connection = Objects.requireNonNull(connection, "connection");
      this.connectionAsync = connection.async();
      return this;
    }

    /** As {@link #connection(StatefulRedisConnection)}, for a Redis Cluster connection. */
    public Builder connection(StatefulRedisClusterConnection<?, ?> connection) {
      this.connection = Objects.requireNonNull(connection, "connection");
      this.connectionAsync = connection.async();
      return this;
    }

    /**
     * Bound on every Redis command and on connecting; default {@link #DEFAULT_COMMAND_TIMEOUT}.
     *
     * @throws IllegalArgumentException when not positive
     */
    public Builder commandTimeout(Duration commandTimeout) {
      this.commandTimeout = BackendArguments.positive("commandTimeout", commandTimeout);
      return this;
    }

    /**
     * Bound on a health probe; default {@link #DEFAULT_HEALTH_TIMEOUT}.
     *
     * @throws IllegalArgumentException when not positive
     */
    public Builder healthTimeout(Duration healthTimeout) {
      this.healthTimeout = BackendArguments.positive("healthTimeout", healthTimeout);
      return this;
    }

    /**
     * How long a key's fencing counter outlives the key's last lease; default {@link
     * #DEFAULT_FENCE_RETENTION}. Longer costs memory (one small string key per lock key); tokens
     * can go backwards only if the server clock steps back by more than this (see the README).
     *
     * @throws IllegalArgumentException when not positive
     */
    public Builder fenceRetention(Duration fenceRetention) {
      this.fenceRetention = BackendArguments.positive("fenceRetention", fenceRetention);
      return this;
    }

    /**
     * Prefix of every Redis key this backend writes; default {@link RedisKeyLayout#DEFAULT_PREFIX}.
     *
     * @throws IllegalArgumentException when longer than 64 chars or not printable ASCII without
     *     braces
     */
    public Builder keyPrefix(String keyPrefix) {
      this.keyPrefix = RedisKeyLayout.withPrefix(keyPrefix).prefix();
      return this;
    }

    /**
     * The key layout, replacing {@link #keyPrefix}: for a rolling migration, {@link
     * RedisKeyLayout#shedLock} or {@link RedisKeyLayout#springIntegration} (opt-in; standalone and
     * Sentinel only, see there for what they cannot carry); {@code null} goes back to the prefix.
     */
    public Builder layout(RedisKeyLayout layout) {
      this.layout = layout;
      return this;
    }

    /**
     * Whether release and replace publish a notification, and {@link #awaitRelease} listens for
     * them; default {@code true}. Off saves one {@code PUBLISH} per release and the pub/sub
     * connection (relevant on large clusters, where classic pub/sub reaches every node, and with
     * many instances, each of which receives every release of the prefix); waiters then poll.
     */
    public Builder releaseNotifications(boolean releaseNotifications) {
      this.releaseNotifications = releaseNotifications;
      return this;
    }

    /**
     * Whether every release and replace publishes ({@code true}), or only those of a key a waiter
     * flagged ({@code false}, the default): a refused acquire whose caller waits in {@link
     * #awaitRelease} (the kernel's wake-on-release) sets the key's waiter flag in the same script.
     * Turn it on for callers that wait with {@link #awaitRelease} <em>without</em> a refused
     * acquire attempt of their own through a backend of this module (they are woken only by
     * releases that publish). Ignored with {@link #releaseNotifications} off.
     */
    public Builder announceEveryRelease(boolean announceEveryRelease) {
      this.announceEveryRelease = announceEveryRelease;
      return this;
    }

    /**
     * Whether grants get fencing tokens from a per-key counter ({@code true}, the default; see the
     * README for when they strictly increase). Off, no counter is kept (no {@code INCR}, no counter
     * key) and every grant reports token {@code 1}: the SPI's "tokens strictly increase" rule is
     * then not kept, so turn it off only when nothing reads {@code fencingToken()} (the "lean"
     * setting). Exclusion, expiry and the holder records are unchanged.
     */
    public Builder fencingTokens(boolean fencingTokens) {
      this.fencingTokens = fencingTokens;
      return this;
    }

    /**
     * Builds the backend without connecting (the first operation connects; see {@link
     * RedisLockBackend#warmUp()}).
     *
     * @throws IllegalStateException when no source or several sources were given
     */
    public RedisLockBackend build() {
      boolean ownClient = uri != null && client == null; // a uri alone: we create the client
      int sources =
          (ownClient ? 1 : 0)
              + (client != null ? 1 : 0)
              + (clusterClient != null ? 1 : 0)
              + (connection != null ? 1 : 0);
      if (sources != 1) {
        throw new IllegalStateException(
            "give exactly one of uri, client (+ uri), clusterClient or connection but got "
                + describeSources());
      }
      if (layout != null && layout.compatible() && (clusterClient != null || clusterConnection())) {
        throw new IllegalStateException(
            "a compatibility layout needs a standalone or Sentinel server but got a cluster source");
      }
      if (client != null && uri == null) {
        throw new IllegalStateException("client needs the uri to connect to but uri was not set");
      }
      return new RedisLockBackend(this, connections());
    }

    private boolean clusterConnection() {
      return connection instanceof StatefulRedisClusterConnection<?, ?>;
    }

    private String describeSources() {
      StringBuilder sb = new StringBuilder("[");
      if (uri != null) {
        sb.append("uri ");
      }
      if (client != null) {
        sb.append("client ");
      }
      if (clusterClient != null) {
        sb.append("clusterClient ");
      }
      if (connection != null) {
        sb.append("connection ");
      }
      return sb.toString().trim() + "]";
    }

    private RedisConnections connections() {
      if (connection != null) {
        return RedisConnections.of(new ScriptClient.Link(connection, connectionAsync));
      }
      if (clusterClient != null) {
        return RedisConnections.of(clusterClient, commandTimeout);
      }
      if (client != null) {
        return RedisConnections.of(client, uri, commandTimeout);
      }
      return RedisConnections.owned(uri, commandTimeout);
    }
  }
}
