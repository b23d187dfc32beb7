package io.hostloom.zookeeper;

import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.BackendHealthProbe;
import io.hostloom.locking.spi.BackendWarmUp;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.PermitLeases;
import io.hostloom.locking.spi.ReadWriteLeases;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.spi.support.BackendArguments;
import io.hostloom.locking.spi.support.DelegatingLockBackend;
import io.hostloom.locking.spi.support.ReleaseWaitRegistry;
import io.hostloom.locking.spi.support.SpiLimits;
import io.hostloom.locking.spi.support.VersionedRecordLockBackend;
import io.hostloom.locking.spi.support.ViewRules;
import io.hostloom.locking.time.LockClock;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.common.PathUtils;

/**
 * A {@link LockBackend} over Apache ZooKeeper 3.6+ (asynchronous client API), for both faces of
 * HostLoom: the lock kernel and WOPI locks. Also a {@link ReleaseSignal} (persistent recursive
 * watches on the lock and view folders, per session), a {@link BackendHealthProbe}, a {@link
 * BackendWarmUp}, and natively {@link ReadWriteLeases} and {@link PermitLeases}: all entries of a
 * reader-writer lock or semaphore are one znode under {@code <root>/views}, apart from the locks
 * ({@link ZooKeeperView}).
 *
 * <p><b>Lease model.</b> One <em>persistent</em> znode per key, {@code <root>/locks/<name>}, holds
 * owner, data, lease length and fencing token. A lease is live while the znode's {@code mtime} plus
 * the lease is after the server's now; the server's now is the {@code mtime} of a write to {@code
 * <root>/clock}, pipelined before each read of a lock znode. Both times are stamped by the
 * ZooKeeper leader, so no client clock takes part. Every change is a {@code setData} (or, for a
 * release or replace, a {@code multi} around one) conditioned on the version read. Lock znodes are
 * never deleted (a release writes a record with lease 0), so their versions only grow and a stale
 * version never matches again. Sessions do not carry leases (a WOPI lock outlives the host that
 * took it), so a session expiry loses no lease.
 *
 * <p><b>Fencing tokens</b> are the zxid of the grant's transaction: the {@code czxid} of the
 * znode's first grant, the {@code mzxid} of the write of every later grant (kept in the record
 * while the owner extends). zxids strictly increase over the ensemble's whole history, across
 * restarts and leader elections, for as long as its data directory is kept.
 *
 * <p><b>Round trips</b> of the five operations (the generic {@link VersionedRecordLockBackend} over
 * this module's store): acquire 1 for a key never locked and when held, 2 otherwise (read,
 * conditional write); extend, release and replace 2 (read, conditional write; a release or replace
 * announces itself in the write), 1 when refused; read 1.
 *
 * <p>Every call completes within {@link Builder#commandTimeout}; failures carry a kind (see the
 * module README). {@link #close()} closes the session; leases stay on the server.
 */
public final class ZooKeeperLockBackend extends DelegatingLockBackend
    implements ReleaseSignal,
        ReadWriteLeases,
        PermitLeases,
        BackendHealthProbe,
        BackendWarmUp,
        AutoCloseable {
  public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_HEALTH_TIMEOUT = Duration.ofSeconds(2);
  public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(10);
  public static final String DEFAULT_ROOT = "/hostloom";

  // a znode holds up to 1 MiB (jute.maxbuffer); keys are hashed into names, so any length fits
  private static final int MAX_VALUE_LENGTH = 100_000;

  // a view znode holds all entries of its key, so its entries keep to the SPI's lengths
  static final BackendArguments VIEW_ARGUMENTS =
      BackendArguments.withLimits(
          Integer.MAX_VALUE, SpiLimits.MAX_OWNER_LENGTH, SpiLimits.MAX_DATA_LENGTH);

  private final String root;
  private final Duration commandTimeout;
  private final Duration healthTimeout;
  private final ScheduledThreadPoolExecutor timer;
  private final ReleaseWaitRegistry waiters; // null: release signal off
  private final ZooKeeperSession session;
  private final ZooKeeperRecordStore store;
  private final VersionedRecordLockBackend<ZooKeeperRecordStore.Version> leases;
  private final ViewUpdates views;
  private volatile boolean closed;

  private ZooKeeperLockBackend(Builder b) {
    this.root = b.root;
    this.commandTimeout = b.commandTimeout;
    this.healthTimeout = b.healthTimeout;
    this.timer = new ScheduledThreadPoolExecutor(1, ZooKeeperLockBackend::timerThread);
    timer.setRemoveOnCancelPolicy(true);
    String locks = ZooKeeperRecordStore.locksFolder(b.root);
    String viewRoot = ZooKeeperRecordStore.viewsFolder(b.root);
    List<String> announcing =
        List.of(
            locks,
            ZooKeeperRecordStore.viewFolder(b.root, ZooKeeperRecordStore.READ_WRITE),
            ZooKeeperRecordStore.viewFolder(b.root, ZooKeeperRecordStore.PERMITS));
    this.waiters = b.releaseSignal ? new ReleaseWaitRegistry(LockClock.system(timer)) : null;
    try {
      this.session =
          new ZooKeeperSession(
              b.connectString,
              (int) Math.min(Integer.MAX_VALUE, b.sessionTimeout.toMillis()),
              waiters == null ? List.of() : List.of(locks, viewRoot),
              waiters == null ? null : new ReleaseEvents(announcing, waiters),
              waiters == null ? () -> {} : waiters::wakeEveryKey,
              timer);
    } catch (IOException | RuntimeException e) {
      timer.shutdownNow();
      throw new IllegalArgumentException("cannot use connectString: " + e.getMessage(), e);
    }
    // half the budget for a connection: a call that got none fails UNAVAILABLE, not TIMEOUT
    this.store = new ZooKeeperRecordStore(session, b.root, b.commandTimeout.dividedBy(2));
    this.leases =
        VersionedRecordLockBackend.builder(store)
            .name("zookeeper")
            .commandTimeout(b.commandTimeout)
            .arguments(
                BackendArguments.withLimits(
                    Integer.MAX_VALUE,
                    Math.max(MAX_VALUE_LENGTH, SpiLimits.MAX_OWNER_LENGTH),
                    Math.max(MAX_VALUE_LENGTH, SpiLimits.MAX_DATA_LENGTH)))
            .build();
    this.views = new ViewUpdates(store, timer, b.commandTimeout);
  }

  private static Thread timerThread(Runnable r) {
    Thread t = new Thread(r, "hostloom-zookeeper-timer");
    t.setDaemon(true);
    return t;
  }

  public static Builder builder() {
    return new Builder();
  }

  // ---------------------------------------------------------------- the five operations

  /** The five operations: the generic versioned-record backend over this module's store. */
  @Override
  protected LockBackend delegate() {
    return leases;
  }

  @Override
  public String name() {
    return "zookeeper";
  }

  // ---------------------------------------------------------------- native views

  /**
   * {@inheritDoc}
   *
   * <p>Always offered: all entries of a reader-writer key are one znode {@code
   * <root>/views/rw/<name>}, read together with the server's now in one round trip and written back
   * conditioned on its version in one more (see the module README). Owners and data of view entries
   * are at most {@link SpiLimits#MAX_OWNER_LENGTH} and {@link SpiLimits#MAX_DATA_LENGTH} long.
   */
  @Override
  public Optional<Views> readWriteViews(int maxReaders) {
    String folder = store.viewFolder(ZooKeeperRecordStore.READ_WRITE);
    return Optional.of(
        new Views(
            new ZooKeeperView<>(
                views, folder, "read view", ZooKeeperView.READ_WRITE, ViewRules.reads(maxReaders)),
            new ZooKeeperView<>(
                views, folder, "write view", ZooKeeperView.READ_WRITE, ViewRules.writes())));
  }

  /**
   * {@inheritDoc}
   *
   * <p>Always offered: all entries of a semaphore are one znode {@code
   * <root>/views/permits/<name>}, as for {@link #readWriteViews}.
   */
  @Override
  public Optional<LockBackend> permitView(int permits) {
    return Optional.of(
        new ZooKeeperView<>(
            views,
            store.viewFolder(ZooKeeperRecordStore.PERMITS),
            "permit view",
            ZooKeeperView.PERMITS,
            ViewRules.permits(permits)));
  }

  // ---------------------------------------------------------------- release signal, health

  /** No request: a local registration, woken by the session's one persistent watch. */
  @Override
  public CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait) {
    BackendArguments.unbounded().awaitRelease(key, maxWait);
    if (waiters == null) {
      return CompletableFuture.completedFuture(false);
    }
    return waiters.await(NodeNames.of(key), maxWait);
  }

  /** Whether this instance hears releases now (its session's watches are confirmed). */
  public boolean releaseSignalUp() {
    return waiters != null && session.watching();
  }

  /** Waits not yet ended. */
  int releaseWaiters() {
    return waiters == null ? 0 : waiters.pending();
  }

  /**
   * Healthy when the connected server answers an {@code exists} of the root znode within the health
   * timeout (waiting for a connection counts against it). One request.
   */
  @Override
  public CompletableFuture<BackendHealth> checkHealth() {
    CompletableFuture<BackendHealth> answer = new CompletableFuture<>();
    if (closed) {
      answer.complete(BackendHealth.unhealthy("ZooKeeper: UNAVAILABLE (backend closed)"));
      return answer;
    }
    ScheduledFuture<?> deadline =
        timer.schedule(
            () ->
                answer.complete(
                    BackendHealth.unhealthy(
                        "ZooKeeper: UNAVAILABLE (no answer within " + healthTimeout + ")")),
            healthTimeout.toNanos(),
            TimeUnit.NANOSECONDS);
    answer.whenComplete((h, t) -> deadline.cancel(false));
    session
        .connection()
        .thenCompose(
            zk -> {
              store.roundTrip("exists");
              return session.exists(zk, root);
            })
        .whenComplete(
            (stat, t) ->
                answer.complete(
                    t == null
                        ? BackendHealth.healthy("ZooKeeper: connected")
                        : BackendHealth.unhealthy("ZooKeeper: UNAVAILABLE (" + describe(t) + ")")));
    return answer;
  }

  /**
   * Does now what the first operation would otherwise pay for: waits for the session {@link
   * Builder#build()} started connecting (at most half the command timeout, as an operation does),
   * creates the root, {@code locks}, {@code views} and {@code clock} znodes where missing (which
   * the first operation of an instance does anyway), then sends one {@code exists} of the root.
   * Without it, the first operation pays for the session's TCP connect and handshake and those
   * creates.
   *
   * <p>Never blocks. Completes within the command timeout, or exceptionally with a {@link
   * LockBackendException}: {@code UNAVAILABLE} when no session was established in time, a request
   * failed or the backend is closed, {@code TIMEOUT} when the command timeout passed first. A
   * failed warm-up changes nothing: the next operation or warm-up tries the layout again. Once
   * warm, a warm-up costs one {@code exists}.
   */
  @Override
  public CompletableFuture<Void> warmUp() {
    if (closed) {
      return CompletableFuture.failedFuture(
          LockBackendException.unavailable("ZooKeeper backend is closed", null));
    }
    CompletableFuture<Void> result = new CompletableFuture<>();
    try {
      ScheduledFuture<?> deadline =
          timer.schedule(
              () ->
                  result.completeExceptionally(
                      LockBackendException.timeout(
                          "ZooKeeper warm-up: not done within " + commandTimeout, null)),
              commandTimeout.toNanos(),
              TimeUnit.NANOSECONDS);
      result.whenComplete((v, t) -> deadline.cancel(false));
    } catch (RejectedExecutionException e) { // closed meanwhile
      return CompletableFuture.failedFuture(
          LockBackendException.unavailable("ZooKeeper backend is closed", e));
    }
    store
        .warmUp()
        .whenComplete(
            (v, t) -> {
              if (t == null) {
                result.complete(null);
              } else {
                Throwable c = ZooKeeperFailures.unwrap(t);
                result.completeExceptionally(
                    c instanceof LockBackendException e
                        ? e
                        : LockBackendException.unavailable("ZooKeeper warm-up: " + describe(c), c));
              }
            });
    return result;
  }

  private static String describe(Throwable t) {
    Throwable c = ZooKeeperFailures.unwrap(t);
    Code code = ZooKeeperFailures.code(c);
    return code != null ? code.name() : c.getClass().getSimpleName();
  }

  /** Test hook: sees the name of every round trip as it is sent. */
  void onRoundTrip(Consumer<String> listener) {
    store.onRoundTrip(Objects.requireNonNull(listener, "listener"));
  }

  ZooKeeperSession session() {
    return session;
  }

  /** The record store under the five operations (for tests that drive it directly). */
  ZooKeeperRecordStore store() {
    return store;
  }

  /** The ZooKeeper handle of the current session (for tools; do not close it). */
  ZooKeeper handle() {
    return session.handle();
  }

  /** Closes the session; leases stay on the server. Pending waits end {@code false}. */
  @Override
  public void close() {
    closed = true;
    if (waiters != null) {
      waiters.close();
    }
    session.close();
    timer.shutdown();
  }

  @Override
  public String toString() {
    return "ZooKeeperLockBackend[root=" + root + ", commandTimeout=" + commandTimeout + "]";
  }

  // ---------------------------------------------------------------- construction

  /**
   * Builds a {@link ZooKeeperLockBackend}; {@link #connectString} is required. Values are checked
   * when set. {@link #build()} starts connecting in the background and does not wait: operations
   * wait for the connection within their command timeout.
   */
  public static final class Builder {
    private String connectString;
    private Duration sessionTimeout = DEFAULT_SESSION_TIMEOUT;
    private Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;
    private Duration healthTimeout = DEFAULT_HEALTH_TIMEOUT;
    private String root = DEFAULT_ROOT;
    private boolean releaseSignal = true;

    private Builder() {}

    /**
     * {@code host:port[,host:port...][/chroot]}, as for {@link ZooKeeper}. A chroot must exist on
     * the server.
     */
    public Builder connectString(String connectString) {
      Objects.requireNonNull(connectString, "connectString");
      if (connectString.isBlank()) {
        throw new IllegalArgumentException("connectString must not be blank");
      }
      this.connectString = connectString;
      return this;
    }

    /**
     * The session timeout asked for (the server clamps it to 2 to 20 ticks). Default {@link
     * #DEFAULT_SESSION_TIMEOUT}. Leases do not depend on it; watches and the connection do.
     */
    public Builder sessionTimeout(Duration sessionTimeout) {
      this.sessionTimeout = BackendArguments.positive("sessionTimeout", sessionTimeout);
      return this;
    }

    /** Bound on every operation, waiting for a connection included. Default 5 s. */
    public Builder commandTimeout(Duration commandTimeout) {
      this.commandTimeout = BackendArguments.positive("commandTimeout", commandTimeout);
      return this;
    }

    /** Bound on {@link #checkHealth()}. Default 2 s. */
    public Builder healthTimeout(Duration healthTimeout) {
      this.healthTimeout = BackendArguments.positive("healthTimeout", healthTimeout);
      return this;
    }

    /**
     * The znode under which {@code locks/}, {@code views/} and {@code clock} live, e.g. {@code
     * /hostloom} (the default); created on first use.
     */
    public Builder rootPath(String rootPath) {
      Objects.requireNonNull(rootPath, "rootPath");
      try {
        PathUtils.validatePath(rootPath);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("rootPath is not a znode path: " + rootPath, e);
      }
      if (rootPath.equals("/")) {
        throw new IllegalArgumentException("rootPath must not be / but a znode below it");
      }
      this.root = rootPath;
      return this;
    }

    /**
     * Whether {@code awaitRelease} listens (persistent recursive watches on the lock and view
     * folders, per session). Off: waits answer {@code false} at once and waiters poll. Default on.
     */
    public Builder releaseSignal(boolean releaseSignal) {
      this.releaseSignal = releaseSignal;
      return this;
    }

    public ZooKeeperLockBackend build() {
      if (connectString == null) {
        throw new IllegalStateException("connectString is required");
      }
      return new ZooKeeperLockBackend(this);
    }
  }
}
