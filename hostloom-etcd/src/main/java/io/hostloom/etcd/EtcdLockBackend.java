package io.hostloom.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Lease;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.BackendHealthProbe;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.LosslessUtf8;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.locking.spi.support.BackendArguments;
import io.hostloom.locking.spi.support.LeaseRounding;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A {@link LockBackend} over etcd v3 (3.4 and later) through jetcd.
 *
 * <p><b>Leases are etcd leases.</b> Every grant and every extension grants an etcd lease with a TTL
 * of the requested lease rounded <em>up</em> to whole seconds (etcd raises it further to its own
 * minimum, 1.5 election timeouts rounded up: 2 s with etcd's defaults) and attaches the key's owner
 * record to it; etcd's leader deletes the record when the TTL runs out, so etcd's clock decides
 * expiry. The lease a record leaves behind is revoked in the background.
 *
 * <p><b>Every step is one transaction, every destructive step conditional.</b> A grant commits only
 * if the owner key does not exist ({@code create_revision == 0}); extend, release and replace
 * commit only if the owner key holds exactly the caller's owner bytes; a refusal answers from the
 * same transaction's else branch. The fencing token is etcd's revision of the grant (the {@code
 * mod_revision} of the data key, written by grants only): strictly increasing cluster-wide, and
 * kept across restarts and leader changes as etcd keeps its revision. See {@link EtcdKeyLayout}.
 *
 * <p><b>Round trips</b> (sequential requests to etcd): acquire 2 (lease grant, transaction), 3 when
 * held (plus the holder's TTL); extend 2, 3 when refused by another owner; release 1, 2 when
 * refused by another owner; replace 2, 3 when refused by another owner; read 2 (transaction, TTL),
 * 1 when free. Revoking a superseded or unused lease is one more request, sent in the background.
 *
 * <p><b>Bounded calls and failures.</b> Every operation is bounded by the command timeout (default
 * 5 s). {@code UNAVAILABLE} when the operation's transaction was never sent (etcd unreachable,
 * lease grant failed, or the timeout passed before it was sent, which then never sends it); {@code
 * TIMEOUT} when the transaction was sent and no answer came; {@code OTHER} for errors etcd
 * answered. Futures complete on jetcd's executor.
 *
 * <p><b>Release signal.</b> One watch per backend over all data keys of the prefix: releases and
 * replaces wake the waits of their key; expiries announce nothing (waiters poll). See {@link
 * ReleaseWatch}.
 */
public final class EtcdLockBackend
    implements LockBackend, ReleaseSignal, BackendHealthProbe, AutoCloseable {
  /** Default bound on every operation: 5 s. */
  public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(5);

  /** Default bound on a health probe: 2 s. */
  public static final Duration DEFAULT_HEALTH_TIMEOUT = Duration.ofSeconds(2);

  // etcd stores values up to its request limit (1.5 MiB by default): no bounds of our own
  // a lease asked for after the read can be gone because the record moved to a new one; after this
  // many reads that each found their lease gone, the record is taken as expired
  private static final int MAX_REREADS = 3;

  private static final BackendArguments ARGS = BackendArguments.unbounded();
  // etcd's MaxLeaseTTL (lease/lessor.go): longer TTLs are refused
  private static final long MAX_TTL_SECONDS = 9_000_000_000L;
  private static final byte GRANTED = 'g';
  private static final byte REPLACED = 'r';
  private static final int NEW = 0;
  private static final int SENT = 1;
  private static final int ABANDONED = 2;

  private final Client client;
  private final boolean ownsClient;
  private final KV kv;
  private final Lease leases;
  private final EtcdKeyLayout layout;
  private final Duration commandTimeout;
  private final Duration healthTimeout;
  private final ScheduledExecutorService timer;
  private final ReleaseWatch releases; // null when off
  private final AtomicBoolean closed = new AtomicBoolean();

  private EtcdLockBackend(Builder b) {
    this.ownsClient = b.client == null;
    this.client =
        ownsClient
            ? Client.builder()
                .endpoints(b.endpoints.toArray(String[]::new))
                .connectTimeout(b.commandTimeout)
                .waitForReady(false)
                .retryMaxAttempts(0) // the kernel retries; a hidden re-send could misanswer
                .build()
            : b.client;
    this.kv = client.getKVClient();
    this.leases = client.getLeaseClient();
    this.layout = EtcdKeyLayout.withPrefix(b.keyPrefix);
    this.commandTimeout = b.commandTimeout;
    this.healthTimeout = b.healthTimeout;
    ScheduledThreadPoolExecutor t =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread thread = new Thread(r, "hostloom-etcd-timer");
              thread.setDaemon(true);
              return thread;
            });
    t.setRemoveOnCancelPolicy(true);
    this.timer = t;
    this.releases = b.releaseSignal ? new ReleaseWatch(client.getWatchClient(), layout, t) : null;
  }

  /** A builder; give it endpoints or a client. */
  public static Builder builder() {
    return new Builder();
  }

  /** The key layout, to find a lock's keys with {@code etcdctl}. */
  public EtcdKeyLayout layout() {
    return layout;
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    ARGS.acquire(key, owner, data, lease);
    long ttl = ttlSeconds(lease);
    ByteSequence o = layout.ownerKey(key);
    ByteSequence d = layout.dataKey(key);
    ByteSequence ov = bytes(owner);
    return run(
        "acquire",
        ttl,
        leaseId ->
            kv.txn()
                .If(new Cmp(o, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                .Then(putOwner(o, ov, leaseId), Op.put(d, data(GRANTED, data), PutOption.DEFAULT))
                .Else(
                    Op.txn(
                        new Cmp[] {owned(o, ov)},
                        new Op[] {putOwner(o, ov, leaseId), Op.get(d, GetOption.DEFAULT)},
                        new Op[] {Op.get(o, GetOption.DEFAULT), Op.get(d, GetOption.DEFAULT)}))
                .commit(),
        (leaseId, r) -> {
          if (r.isSucceeded()) {
            return CompletableFuture.completedFuture(
                AcquireOutcome.granted(r.getHeader().getRevision()));
          }
          TxnResponse again = r.getTxnResponses().get(0);
          if (again.isSucceeded()) { // the owner's own live lease: new expiry, same token and data
            revokeLater(again.getPutResponses().get(0).getPrevKv().getLease());
            return CompletableFuture.completedFuture(
                AcquireOutcome.granted(single(again.getGetResponses().get(0)).getModRevision()));
          }
          revokeLater(leaseId);
          return holder(again).thenApply(h -> AcquireOutcome.held(h.orElseThrow(this::noHolder)));
        });
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    ARGS.extend(key, owner, lease);
    long ttl = ttlSeconds(lease);
    ByteSequence o = layout.ownerKey(key);
    ByteSequence ov = bytes(owner);
    return run(
        "extend",
        ttl,
        leaseId ->
            kv.txn()
                .If(owned(o, ov))
                .Then(putOwner(o, ov, leaseId))
                .Else(Op.get(o, GetOption.DEFAULT), Op.get(layout.dataKey(key), GetOption.DEFAULT))
                .commit(),
        (leaseId, r) -> {
          if (r.isSucceeded()) {
            revokeLater(r.getPutResponses().get(0).getPrevKv().getLease());
            return CompletableFuture.completedFuture(ExtendOutcome.succeeded());
          }
          revokeLater(leaseId);
          return holder(r)
              .thenApply(h -> h.map(ExtendOutcome::mismatch).orElseGet(ExtendOutcome::absent));
        });
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    ARGS.release(key, owner);
    ByteSequence o = layout.ownerKey(key);
    ByteSequence d = layout.dataKey(key);
    return run(
        "release",
        0,
        none ->
            kv.txn()
                .If(owned(o, bytes(owner)))
                .Then(
                    Op.delete(o, DeleteOption.builder().withPrevKV(true).build()),
                    Op.delete(d, DeleteOption.DEFAULT))
                .Else(Op.get(o, GetOption.DEFAULT), Op.get(d, GetOption.DEFAULT))
                .commit(),
        (none, r) -> {
          if (r.isSucceeded()) {
            r.getDeleteResponses().get(0).getPrevKvs().forEach(kv -> revokeLater(kv.getLease()));
            return CompletableFuture.completedFuture(ReleaseOutcome.succeeded());
          }
          return holder(r)
              .thenApply(h -> h.map(ReleaseOutcome::mismatch).orElseGet(ReleaseOutcome::absent));
        });
  }

  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    ARGS.replace(key, expectedOwner, newOwner, newData, lease);
    long ttl = ttlSeconds(lease);
    ByteSequence o = layout.ownerKey(key);
    ByteSequence d = layout.dataKey(key);
    return run(
        "replace",
        ttl,
        leaseId ->
            kv.txn()
                .If(owned(o, bytes(expectedOwner)))
                .Then(
                    putOwner(o, bytes(newOwner), leaseId),
                    Op.put(d, data(REPLACED, newData), PutOption.DEFAULT))
                .Else(Op.get(o, GetOption.DEFAULT), Op.get(d, GetOption.DEFAULT))
                .commit(),
        (leaseId, r) -> {
          if (r.isSucceeded()) {
            revokeLater(r.getPutResponses().get(0).getPrevKv().getLease());
            return CompletableFuture.completedFuture(
                ReplaceOutcome.replaced(r.getHeader().getRevision()));
          }
          revokeLater(leaseId);
          return holder(r)
              .thenApply(h -> h.map(ReplaceOutcome::mismatch).orElseGet(ReplaceOutcome::absent));
        });
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    ARGS.read(key);
    return read(key, 0);
  }

  private CompletableFuture<Optional<LeaseRecord>> read(String key, int reread) {
    return run(
        "read",
        0,
        none ->
            kv.txn()
                .Then(
                    Op.get(layout.ownerKey(key), GetOption.DEFAULT),
                    Op.get(layout.dataKey(key), GetOption.DEFAULT))
                .commit(),
        (none, r) ->
            record(
                r,
                true,
                reread < MAX_REREADS
                    ? () -> read(key, reread + 1)
                    : () -> CompletableFuture.completedFuture(Optional.empty())));
  }

  @Override
  public String name() {
    return "etcd";
  }

  /**
   * Starts waiting for a delete (release or expiry) of {@code key}, seen by this backend's watch.
   * Completes {@code false} at once when the signal is off or the backend is closed.
   */
  @Override
  public CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait) {
    ARGS.awaitRelease(key, maxWait);
    return releases == null || closed.get()
        ? CompletableFuture.completedFuture(false)
        : releases.await(key, maxWait);
  }

  /** Whether the release watch is confirmed by etcd (false when off, failed or closed). */
  public boolean releaseSignalUp() {
    return releases != null && releases.up();
  }

  /** Release waits not yet ended (for tests and diagnostics). */
  int releaseWaiters() {
    return releases == null ? 0 : releases.waiters();
  }

  /** A linearizable read of one key (it needs a quorum and a leader), within the health timeout. */
  @Override
  public CompletableFuture<BackendHealth> checkHealth() {
    if (closed.get()) {
      return CompletableFuture.completedFuture(BackendHealth.unhealthy("etcd: backend closed"));
    }
    try {
      return kv.get(layout.ownerKey("health"), GetOption.builder().withCountOnly(true).build())
          .orTimeout(healthTimeout.toNanos(), TimeUnit.NANOSECONDS)
          .handle(
              (r, e) ->
                  e == null
                      ? BackendHealth.healthy("etcd: quorum read answered")
                      : BackendHealth.unhealthy(
                          "etcd: quorum read failed ("
                              + EtcdFailures.kindOf(e, false)
                              + ", "
                              + EtcdFailures.unwrap(e).getClass().getSimpleName()
                              + ")"));
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(
          BackendHealth.unhealthy(
              "etcd: quorum read failed (" + e.getClass().getSimpleName() + ")"));
    }
  }

  /** Ends pending release waits with {@code false}; closes the client when this backend made it. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    if (releases != null) {
      releases.close();
    }
    timer.shutdownNow();
    if (ownsClient) {
      client.close();
    }
  }

  @Override
  public String toString() {
    return "EtcdLockBackend[timeout=" + commandTimeout + "]";
  }

  // ------------------------------------------------------------------------------------------

  /**
   * Runs one operation: grants a lease of {@code ttl} seconds first (none when 0), then sends the
   * transaction at most once, and only if the timeout has not passed yet; the state decides the
   * failure kind.
   */
  private <T> CompletableFuture<T> run(
      String operation,
      long ttl,
      Function<Long, CompletableFuture<TxnResponse>> txn,
      Step<T> answer) {
    if (closed.get()) {
      return CompletableFuture.failedFuture(
          LockBackendException.unavailable("etcd " + operation + ": backend closed", null));
    }
    AtomicInteger state = new AtomicInteger(NEW);
    CompletableFuture<T> result = new CompletableFuture<>();
    CompletableFuture<Long> lease =
        ttl == 0
            ? CompletableFuture.completedFuture(0L)
            : call(() -> leases.grant(ttl)).thenApply(g -> g.getID());
    lease
        .thenCompose(
            leaseId -> {
              if (!state.compareAndSet(NEW, SENT)) {
                revokeLater(leaseId);
                return CompletableFuture.<T>failedFuture(new TimeoutException());
              }
              return call(() -> txn.apply(leaseId))
                  .thenCompose(
                      r -> {
                        if (releases != null) {
                          releases.observed(r.getHeader().getRevision());
                        }
                        return answer.apply(leaseId, r);
                      });
            })
        .whenComplete(
            (v, e) -> {
              if (e == null) {
                result.complete(v);
              } else {
                result.completeExceptionally(EtcdFailures.map(operation, e, state.get() == SENT));
              }
            });
    ScheduledFuture<?> deadline =
        timer.schedule(
            () -> {
              boolean neverSent = state.compareAndSet(NEW, ABANDONED);
              String message = "etcd " + operation + " timed out after " + commandTimeout;
              result.completeExceptionally(
                  neverSent
                      ? LockBackendException.unavailable(message + " (never sent)", null)
                      : LockBackendException.timeout(message, null));
            },
            commandTimeout.toNanos(),
            TimeUnit.NANOSECONDS);
    result.whenComplete((v, e) -> deadline.cancel(false));
    return result;
  }

  @FunctionalInterface
  private interface Step<T> {
    CompletableFuture<T> apply(long leaseId, TxnResponse response);
  }

  private static <T> CompletableFuture<T> call(
      java.util.function.Supplier<CompletableFuture<T>> c) {
    try {
      return c.get();
    } catch (RuntimeException e) { // jetcd throws on a closed client
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * The record from a transaction's two gets (owner key, data key), empty when the owner key is
   * absent; remaining from etcd's TTL.
   */
  private CompletableFuture<Optional<LeaseRecord>> holder(TxnResponse r) {
    return record(r, false, null);
  }

  /**
   * The record a transaction saw. {@code liveNow}: empty when the lease ran out since (for read);
   * otherwise the record as it was at the transaction's revision (a refusal's answer, linearized
   * there), with 1 ms left.
   */
  /**
   * The record of a read, with the remaining time of its lease. When that lease is gone by the time
   * it is asked for ({@code liveNow}), the record may have expired since the read, or an extend,
   * refresh or relock may have moved it to a new lease and revoked the old one: it is read again
   * ({@code reread}), so a record that was live all along is never reported absent.
   */
  private CompletableFuture<Optional<LeaseRecord>> record(
      TxnResponse r,
      boolean liveNow,
      java.util.function.Supplier<CompletableFuture<Optional<LeaseRecord>>> reread) {
    List<GetResponse> gets = r.getGetResponses();
    if (gets.get(0).getKvs().isEmpty()) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    KeyValue owner = single(gets.get(0));
    KeyValue data = single(gets.get(1));
    return leases
        .timeToLive(owner.getLease(), LeaseOption.DEFAULT)
        .thenCompose(
            t ->
                t.getTTL() < 0 && liveNow
                    ? reread.get()
                    : CompletableFuture.completedFuture(
                        Optional.of(
                            new LeaseRecord(
                                text(owner.getValue()),
                                dataText(data.getValue()),
                                remaining(t.getTTL()),
                                data.getModRevision()))));
  }

  // etcd answers whole seconds, truncated: under a second left is still a live lease
  private static Duration remaining(long ttlSeconds) {
    return ttlSeconds > 0 ? Duration.ofSeconds(ttlSeconds) : Duration.ofMillis(1);
  }

  private static KeyValue single(GetResponse get) {
    if (get.getKvs().isEmpty()) {
      throw LockBackendException.other("etcd lock record without its data key", null);
    }
    return get.getKvs().get(0);
  }

  private LockBackendException noHolder() {
    return LockBackendException.other("etcd refused a grant without a holder", null);
  }

  private void revokeLater(long leaseId) {
    if (leaseId != 0 && !closed.get()) {
      call(() -> leases.revoke(leaseId)); // cleanup only: an unrevoked lease runs out by itself
    }
  }

  private static Cmp owned(ByteSequence ownerKey, ByteSequence owner) {
    return new Cmp(ownerKey, Cmp.Op.EQUAL, CmpTarget.value(owner));
  }

  private static Op putOwner(ByteSequence ownerKey, ByteSequence owner, long leaseId) {
    return Op.put(ownerKey, owner, PutOption.builder().withLeaseId(leaseId).withPrevKV().build());
  }

  private static ByteSequence bytes(String s) {
    return ByteSequence.from(LosslessUtf8.encode(s));
  }

  private static String text(ByteSequence b) {
    return LosslessUtf8.decode(b.getBytes());
  }

  private static ByteSequence data(byte grant, String data) {
    byte[] d = LosslessUtf8.encode(data);
    byte[] out = new byte[d.length + 1];
    out[0] = grant;
    System.arraycopy(d, 0, out, 1, d.length);
    return ByteSequence.from(out);
  }

  private static String dataText(ByteSequence b) {
    byte[] v = b.getBytes();
    return LosslessUtf8.decode(Arrays.copyOfRange(v, 1, v.length));
  }

  /** Whether a watch event is a replace's write of a data key. */
  static boolean replaced(WatchEvent e) {
    ByteSequence v = e.getKeyValue().getValue();
    return e.getEventType() == WatchEvent.EventType.PUT
        && !v.isEmpty()
        && v.getBytes()[0] == REPLACED;
  }

  private static long ttlSeconds(Duration lease) {
    return Math.min(LeaseRounding.ceilSeconds(lease), MAX_TTL_SECONDS);
  }

  /** Builds an {@link EtcdLockBackend}. */
  public static final class Builder {
    private List<String> endpoints;
    private Client client;
    private String keyPrefix = EtcdKeyLayout.DEFAULT_PREFIX;
    private Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;
    private Duration healthTimeout = DEFAULT_HEALTH_TIMEOUT;
    private boolean releaseSignal = true;

    private Builder() {}

    /**
     * etcd client endpoints, e.g. {@code http://10.0.0.1:2379}; the backend makes and owns a jetcd
     * client (fails fast while etcd is unreachable instead of queueing).
     */
    public Builder endpoints(String... endpoints) {
      List<String> list = List.of(endpoints);
      if (list.isEmpty()) {
        throw new IllegalArgumentException("at least one etcd endpoint is needed");
      }
      this.endpoints = list;
      this.client = null;
      return this;
    }

    /** A jetcd client configured by the caller (TLS, auth); used as is, never closed here. */
    public Builder client(Client client) {
      this.client = Objects.requireNonNull(client, "client");
      this.endpoints = null;
      return this;
    }

    /**
     * Prefix of every etcd key this backend writes; default {@value EtcdKeyLayout#DEFAULT_PREFIX}.
     */
    public Builder keyPrefix(String keyPrefix) {
      EtcdKeyLayout.withPrefix(keyPrefix);
      this.keyPrefix = keyPrefix;
      return this;
    }

    /** Bound on every operation; default {@link #DEFAULT_COMMAND_TIMEOUT}. */
    public Builder commandTimeout(Duration commandTimeout) {
      this.commandTimeout = BackendArguments.positive("commandTimeout", commandTimeout);
      return this;
    }

    /** Bound on a health probe; default {@link #DEFAULT_HEALTH_TIMEOUT}. */
    public Builder healthTimeout(Duration healthTimeout) {
      this.healthTimeout = BackendArguments.positive("healthTimeout", healthTimeout);
      return this;
    }

    /** Whether to open the release watch (default on); off, waiters poll. */
    public Builder releaseSignal(boolean releaseSignal) {
      this.releaseSignal = releaseSignal;
      return this;
    }

    /**
     * A new backend; connects lazily, so it can be built while etcd is down.
     *
     * @throws IllegalStateException when neither endpoints nor a client were given
     */
    public EtcdLockBackend build() {
      if (endpoints == null && client == null) {
        throw new IllegalStateException("give endpoints(...) or client(...)");
      }
      return new EtcdLockBackend(this);
    }
  }
}
