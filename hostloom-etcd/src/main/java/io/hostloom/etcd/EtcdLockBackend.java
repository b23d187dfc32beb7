package io.hostloom.etcd;

import static io.hostloom.etcd.RecordCodec.GRANTED;
import static io.hostloom.etcd.RecordCodec.REPLACED;
import static io.hostloom.etcd.RecordCodec.data;
import static io.hostloom.etcd.RecordCodec.free;
import static io.hostloom.etcd.RecordCodec.owned;
import static io.hostloom.etcd.RecordCodec.putOwner;
import static io.hostloom.etcd.RecordCodec.single;

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
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

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
 * kept across restarts and leader changes as etcd keeps its revision. See {@link EtcdKeyLayout} for
 * the keys and {@link RecordCodec} for their values.
 *
 * <p><b>Round trips</b> (sequential requests to etcd): acquire 2 (lease grant, transaction), 3 when
 * held (plus the holder's TTL); extend 2, 3 when refused by another owner; release 1, 2 when
 * refused by another owner; replace 2, 3 when refused by another owner; read 2 (transaction, TTL),
 * 1 when free. Of a lock this instance holds, while its lower bound of the lease's end is ahead
 * (see {@link GrantedLeases}): read 1 (the transaction), extend to the same length 1 of wall time
 * (a keep-alive and a checking transaction, sent together). Revoking a superseded or unused lease
 * is one more request, sent in the background.
 *
 * <p><b>Bounded calls and failures.</b> Every operation is bounded by the command timeout (default
 * 5 s). {@code UNAVAILABLE} when the operation's transaction was never sent (etcd unreachable,
 * lease grant failed, or the timeout passed before it was sent, which then never sends it); {@code
 * TIMEOUT} when the transaction was sent and no answer came (also for any failure of an extension
 * by keep-alive, whose requests are sent at once); {@code OTHER} for errors etcd answered. Futures
 * complete on jetcd's executor. See {@link TxnRunner}.
 *
 * <p><b>Release signal.</b> One watch per backend over all data keys of the prefix and the native
 * views' keys: releases and replaces wake the waits of their key; a lock's expiry announces nothing
 * (waiters poll), a view entry's does (etcd's delete of it looks like a release). See {@link
 * ReleaseWatch}.
 *
 * <p><b>Native semaphores and reader-writer locks</b> ({@link PermitLeases}, {@link
 * ReadWriteLeases}): entry keys under a view key, each on its own etcd lease, a guard key whose
 * {@code mod_revision} makes each decision atomic; see {@link ViewEntries}. Requests: acquire 3
 * (range read, lease grant, transaction), refused 1 plus one TTL request per entry considered, sent
 * together (no lease is granted); extend 3, 1 when absent; release 1; read 1 plus the TTLs, sent
 * together. A compare that fails (another grant came in between) reads again.
 */
public final class EtcdLockBackend
    implements LockBackend,
        PermitLeases,
        ReadWriteLeases,
        ReleaseSignal,
        BackendHealthProbe,
        BackendWarmUp,
        AutoCloseable {
  /** Default bound on every operation: 5 s. */
  public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(5);

  /** Default bound on a health probe: 2 s. */
  public static final Duration DEFAULT_HEALTH_TIMEOUT = Duration.ofSeconds(2);

  // etcd stores values up to its request limit (1.5 MiB by default): no bounds of our own
  // a lease asked for after the read can be gone because the record moved to a new one; after this
  // many reads that each found their lease gone, the record is taken as expired
  private static final int MAX_REREADS = 3;

  private static final BackendArguments ARGS = BackendArguments.unbounded();

  private final Client client;
  private final boolean ownsClient;
  private final KV kv;
  private final Lease leases;
  private final EtcdKeyLayout layout;
  private final Duration commandTimeout;
  private final Duration healthTimeout;
  private final ScheduledExecutorService timer;
  private final ReleaseWatch releases; // null when off
  private final TxnRunner runner;
  private final GrantedLeases granted;
  private final ViewEntries views;
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
    ReleaseWatch watch =
        b.releaseSignal ? new ReleaseWatch(client.getWatchClient(), layout, t) : null;
    this.releases = watch;
    this.granted = new GrantedLeases(b.nanoTime);
    this.runner =
        new TxnRunner(
            leases,
            commandTimeout,
            t,
            closed::get,
            watch == null ? r -> {} : watch::observed,
            granted::now);
    this.views = new ViewEntries(kv, leases, runner);
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
    long ttl = RecordCodec.ttlSeconds(lease);
    ByteSequence o = layout.ownerKey(key);
    ByteSequence d = layout.dataKey(key);
    ByteSequence ov = RecordCodec.owner(owner);
    return runner.run(
        "acquire",
        ttl,
        leaseId ->
            kv.txn()
                .If(free(o))
                .Then(putOwner(o, ov, leaseId), Op.put(d, data(GRANTED, data), PutOption.DEFAULT))
                .Else(
                    Op.txn(
                        new Cmp[] {owned(o, ov)},
                        new Op[] {putOwner(o, ov, leaseId), Op.get(d, GetOption.DEFAULT)},
                        new Op[] {Op.get(o, GetOption.DEFAULT), Op.get(d, GetOption.DEFAULT)}))
                .commit(),
        (grant, r) -> {
          if (r.isSucceeded()) {
            wrote(key, ov, ttl, grant, r);
            return CompletableFuture.completedFuture(
                AcquireOutcome.granted(r.getHeader().getRevision()));
          }
          TxnResponse again = r.getTxnResponses().get(0);
          if (again.isSucceeded()) { // the owner's own live lease: new expiry, same token and data
            wrote(key, ov, ttl, grant, r);
            revokeSuperseded(again.getPutResponses().get(0).getPrevKv().getLease(), grant.id());
            return CompletableFuture.completedFuture(
                AcquireOutcome.granted(single(again.getGetResponses().get(0)).getModRevision()));
          }
          granted.forget(key);
          revokeUnused(grant.id(), again);
          return holder(again).thenApply(h -> AcquireOutcome.held(h.orElseThrow(this::noHolder)));
        });
  }

  /**
   * {@inheritDoc}
   *
   * <p>Of a lock this instance granted, with the same TTL, while its lease is surely live: a
   * keep-alive of that lease and a read-only transaction that checks the owner key is still exactly
   * that write, both sent at once (one round trip of wall time). Otherwise a new lease and the
   * owner-checked transaction that moves the key onto it.
   */
  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    ARGS.extend(key, owner, lease);
    long ttl = RecordCodec.ttlSeconds(lease);
    ByteSequence ov = RecordCodec.owner(owner);
    GrantedLeases.Entry mine = granted.live(key);
    if (mine != null && mine.requestedTtl() == ttl && mine.owner().equals(ov)) {
      return keepAlive(key, ttl, mine);
    }
    return moveToNewLease(key, ov, ttl);
  }

  /** Extends by a new lease of {@code ttl} and a transaction that moves the owner key onto it. */
  private CompletableFuture<ExtendOutcome> moveToNewLease(String key, ByteSequence ov, long ttl) {
    ByteSequence o = layout.ownerKey(key);
    return runner.run(
        "extend",
        ttl,
        leaseId ->
            kv.txn()
                .If(owned(o, ov))
                .Then(putOwner(o, ov, leaseId))
                .Else(Op.get(o, GetOption.DEFAULT), Op.get(layout.dataKey(key), GetOption.DEFAULT))
                .commit(),
        (grant, r) -> {
          if (r.isSucceeded()) {
            wrote(key, ov, ttl, grant, r);
            revokeSuperseded(r.getPutResponses().get(0).getPrevKv().getLease(), grant.id());
            return CompletableFuture.completedFuture(ExtendOutcome.succeeded());
          }
          granted.forget(key);
          revokeUnused(grant.id(), r);
          return holder(r)
              .thenApply(h -> h.map(ExtendOutcome::mismatch).orElseGet(ExtendOutcome::absent));
        });
  }

  /**
   * Extends the lease {@code mine} names with a keep-alive, sent together with a read-only
   * transaction that checks the owner key still is that write ({@code mod_revision}: any put or
   * delete of the key changes it). Why sending both at once is safe, case by case:
   *
   * <ul>
   *   <li>The transaction confirms and the keep-alive answers a TTL: etcd renews only a lease that
   *       has not expired (an expired one waits for its revocation and answers "not found"), so the
   *       key was on a live lease from the transaction until the renewal, and from the renewal on
   *       ends no earlier than the keep-alive's send time + TTL. Whatever changed the key in
   *       between compared the owner (release, replace, another instance's extend or acquire by the
   *       same owner) and comes after this extension; nobody could take the key over, as it never
   *       expired.
   *   <li>The transaction does not confirm: the keep-alive may have renewed the lease anyway, but
   *       that lease carries no other lock. Every operation of this backend grants a lease of its
   *       own and puts exactly one owner key on it, in its one transaction (acquire, extend and
   *       replace all move the key to their new lease; nothing puts a key on an existing lease), so
   *       a key that left the lease left it keyless, and a renewed keyless lease only runs out
   *       later. The answer is then the transaction's: absent, another owner (its record), or this
   *       owner on another write (extended the ordinary way).
   *   <li>The transaction confirms but the lease is gone (the keep-alive answers no TTL): the key
   *       is being deleted by its expiry; the ordinary extension decides on what etcd shows then.
   * </ul>
   */
  private CompletableFuture<ExtendOutcome> keepAlive(
      String key, long ttl, GrantedLeases.Entry mine) {
    ByteSequence o = layout.ownerKey(key);
    ByteSequence d = layout.dataKey(key);
    long sent = granted.now();
    return runner.runSent(
        "extend",
        () -> {
          CompletableFuture<Long> renewed =
              TxnRunner.call(() -> leases.keepAliveOnce(mine.leaseId()))
                  .handle(
                      (k, e) -> {
                        if (e == null) {
                          return k.getTTL();
                        }
                        if (EtcdFailures.leaseNotFound(e)) {
                          return 0L; // the lease is gone (revoked, or expired and revoked)
                        }
                        throw new CompletionException(EtcdFailures.unwrap(e));
                      });
          CompletableFuture<TxnResponse> checked =
              TxnRunner.call(
                  () ->
                      kv.txn()
                          .If(new Cmp(o, Cmp.Op.EQUAL, CmpTarget.modRevision(mine.modRevision())))
                          .Else(Op.get(o, GetOption.DEFAULT), Op.get(d, GetOption.DEFAULT))
                          .commit());
          return checked.thenCombine(renewed, KeptAlive::new);
        },
        k -> k.checked().getHeader().getRevision(),
        k -> {
          TxnResponse r = k.checked();
          if (r.isSucceeded() && k.renewedTtl() > 0) {
            granted.extended(key, mine, GrantedLeases.endOf(sent, k.renewedTtl()));
            return CompletableFuture.completedFuture(ExtendOutcome.succeeded());
          }
          granted.forget(key, mine);
          List<KeyValue> now = r.isSucceeded() ? List.of() : r.getGetResponses().get(0).getKvs();
          if (r.isSucceeded() || (!now.isEmpty() && now.get(0).getValue().equals(mine.owner()))) {
            return moveToNewLease(key, mine.owner(), ttl);
          }
          if (now.isEmpty() || now.get(0).getLease() != mine.leaseId()) {
            runner.revokeLater(mine.leaseId()); // keyless now; the keep-alive may have renewed it
          }
          return holder(r)
              .thenApply(h -> h.map(ExtendOutcome::mismatch).orElseGet(ExtendOutcome::absent));
        });
  }

  /** The answers of an extension by keep-alive: the check, the lease's new TTL (0: gone). */
  private record KeptAlive(TxnResponse checked, long renewedTtl) {}

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    ARGS.release(key, owner);
    ByteSequence o = layout.ownerKey(key);
    ByteSequence d = layout.dataKey(key);
    return runner.run(
        "release",
        0,
        none ->
            kv.txn()
                .If(owned(o, RecordCodec.owner(owner)))
                .Then(
                    Op.delete(o, DeleteOption.builder().withPrevKV(true).build()),
                    Op.delete(d, DeleteOption.DEFAULT))
                .Else(Op.get(o, GetOption.DEFAULT), Op.get(d, GetOption.DEFAULT))
                .commit(),
        (none, r) -> {
          granted.forget(key);
          if (r.isSucceeded()) {
            r.getDeleteResponses()
                .get(0)
                .getPrevKvs()
                .forEach(kv -> runner.revokeLater(kv.getLease()));
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
    long ttl = RecordCodec.ttlSeconds(lease);
    ByteSequence o = layout.ownerKey(key);
    ByteSequence d = layout.dataKey(key);
    ByteSequence nv = RecordCodec.owner(newOwner);
    return runner.run(
        "replace",
        ttl,
        leaseId ->
            kv.txn()
                .If(owned(o, RecordCodec.owner(expectedOwner)))
                .Then(
                    putOwner(o, nv, leaseId), Op.put(d, data(REPLACED, newData), PutOption.DEFAULT))
                .Else(Op.get(o, GetOption.DEFAULT), Op.get(d, GetOption.DEFAULT))
                .commit(),
        (grant, r) -> {
          if (r.isSucceeded()) {
            wrote(key, nv, ttl, grant, r);
            revokeSuperseded(r.getPutResponses().get(0).getPrevKv().getLease(), grant.id());
            return CompletableFuture.completedFuture(
                ReplaceOutcome.replaced(r.getHeader().getRevision()));
          }
          granted.forget(key);
          revokeUnused(grant.id(), r);
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
    return runner.run(
        "read",
        0,
        none ->
            kv.txn()
                .Then(
                    Op.get(layout.ownerKey(key), GetOption.DEFAULT),
                    Op.get(layout.dataKey(key), GetOption.DEFAULT))
                .commit(),
        (none, r) -> {
          List<KeyValue> owner = r.getGetResponses().get(0).getKvs();
          GrantedLeases.Entry mine = owner.isEmpty() ? null : granted.confirms(key, owner.get(0));
          if (mine != null) { // this instance's write, on a lease surely live: no TTL to ask for
            long left = TimeUnit.NANOSECONDS.toSeconds(mine.endNanos() - granted.now());
            return CompletableFuture.completedFuture(
                Optional.of(
                    RecordCodec.record(owner.get(0), single(r.getGetResponses().get(1)), left)));
          }
          return record(
              r,
              true,
              reread < MAX_REREADS
                  ? () -> read(key, reread + 1)
                  : () -> CompletableFuture.completedFuture(Optional.empty()));
        });
  }

  @Override
  public String name() {
    return "etcd";
  }

  /**
   * {@inheritDoc}
   *
   * <p>Always offered: one entry key per permit under the semaphore's view key, each acquire a
   * range read and a transaction guarded by the key's guard (see {@link EtcdKeyLayout}).
   */
  @Override
  public Optional<LockBackend> permitView(int permits) {
    if (permits <= 0) {
      throw new IllegalArgumentException("permits must be positive: " + permits);
    }
    return Optional.of(new EtcdPermitView(views, layout, permits));
  }

  /**
   * {@inheritDoc}
   *
   * <p>Always offered: one entry key per reader and one for the writer (holding or waiting) under
   * the lock's view key, each acquire a range read and a guarded transaction.
   */
  @Override
  public Optional<Views> readWriteViews(int maxReaders) {
    if (maxReaders <= 0) {
      throw new IllegalArgumentException("maxReaders must be positive: " + maxReaders);
    }
    return Optional.of(
        new Views(
            new EtcdReaderView(views, layout, maxReaders), new EtcdWriterView(views, layout)));
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

  /**
   * Connects: one linearizable count-only Range of one key (it opens the gRPC channel and needs a
   * leader and a quorum, as every operation does), bounded by the command timeout. Changes nothing;
   * fails with {@code UNAVAILABLE} when etcd cannot be reached, {@code TIMEOUT} when it did not
   * answer in time, {@code OTHER} for an error etcd answered (e.g. permission denied); {@code
   * UNAVAILABLE} when closed.
   */
  @Override
  public CompletableFuture<Void> warmUp() {
    if (closed.get()) {
      return CompletableFuture.failedFuture(
          LockBackendException.unavailable("etcd warm-up: backend closed", null));
    }
    CompletableFuture<Void> result = new CompletableFuture<>();
    var unused =
        TxnRunner.call(
                () ->
                    kv.get(
                        layout.ownerKey("warm-up"),
                        GetOption.builder().withCountOnly(true).build()))
            .orTimeout(commandTimeout.toNanos(), TimeUnit.NANOSECONDS)
            .whenComplete(
                (r, e) -> {
                  if (e == null) {
                    result.complete(null);
                  } else {
                    result.completeExceptionally(EtcdFailures.unchanged("warm-up", e));
                  }
                });
    return result;
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
   * The record a refusal's two gets (owner key, data key) saw, empty when the owner key is absent.
   */
  private CompletableFuture<Optional<LeaseRecord>> holder(TxnResponse r) {
    return record(r, false, null);
  }

  /**
   * The record of a transaction's two gets, with the remaining time of its lease. For a refusal the
   * record is as it was at the transaction's revision (linearized there, 1 ms left when its lease
   * ran out since). For a read ({@code liveNow}), a lease gone by the time it is asked for means
   * the record may have expired since the read, or an extend, refresh or relock may have moved it
   * to a new lease and revoked the old one: it is read again ({@code reread}), so a record that was
   * live all along is never reported absent.
   */
  private CompletableFuture<Optional<LeaseRecord>> record(
      TxnResponse r, boolean liveNow, Supplier<CompletableFuture<Optional<LeaseRecord>>> reread) {
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
                        Optional.of(RecordCodec.record(owner, data, t.getTTL()))));
  }

  /**
   * Remembers that the transaction {@code r} put {@code key}'s owner key ({@code owner}) on {@code
   * lease}: its revision is the key's {@code mod_revision}.
   */
  private void wrote(
      String key, ByteSequence owner, long ttl, TxnRunner.Grant lease, TxnResponse r) {
    granted.wrote(
        key,
        new GrantedLeases.Entry(
            owner,
            lease.id(),
            r.getHeader().getRevision(),
            ttl,
            lease.ttl(),
            GrantedLeases.endOf(lease.sentNanos(), lease.ttl())));
  }

  private LockBackendException noHolder() {
    return LockBackendException.other("etcd refused a grant without a holder", null);
  }

  /**
   * Revokes the lease a write moved the owner key away from, unless it is the lease the key is on
   * now: a transaction applied twice (a client that re-sends after a lost answer) finds its own
   * lease as the previous one, and revoking that would delete the key it just wrote.
   */
  private void revokeSuperseded(long previous, long current) {
    if (previous != current) {
      runner.revokeLater(previous);
    }
  }

  /**
   * Revokes the lease a refused write granted for itself, unless the refusal saw the owner key on
   * it (the same write applied twice: the first application put the key there).
   */
  private void revokeUnused(long leaseId, TxnResponse refusal) {
    List<KeyValue> owner = refusal.getGetResponses().get(0).getKvs();
    if (owner.isEmpty() || owner.get(0).getLease() != leaseId) {
      runner.revokeLater(leaseId);
    }
  }

  /** Builds an {@link EtcdLockBackend}. */
  public static final class Builder {
    private List<String> endpoints;
    private Client client;
    private String keyPrefix = EtcdKeyLayout.DEFAULT_PREFIX;
    private Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;
    private Duration healthTimeout = DEFAULT_HEALTH_TIMEOUT;
    private boolean releaseSignal = true;
    private LongSupplier nanoTime = System::nanoTime;

    private Builder() {}

    /** The local monotonic clock that times this instance's own leases (tests only). */
    Builder nanoTime(LongSupplier nanoTime) {
      this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
      return this;
    }

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
