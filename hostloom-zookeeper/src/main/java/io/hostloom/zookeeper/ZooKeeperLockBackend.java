package io.hostloom.zookeeper;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.BackendHealthProbe;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.zookeeper.ZooKeeperSession.Node;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.CreateOptions;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.common.PathUtils;
import org.apache.zookeeper.data.Stat;

/**
 * A {@link LockBackend} over Apache ZooKeeper 3.6+ (asynchronous client API), for both faces of
 * HostLoom: the lock kernel and WOPI locks. Also a {@link ReleaseSignal} (one persistent recursive
 * watch per session) and a {@link BackendHealthProbe}.
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
 * <p>Every call completes within {@link Builder#commandTimeout}; failures carry a kind (see the
 * module README). {@link #close()} closes the session; leases stay on the server.
 */
public final class ZooKeeperLockBackend
    implements LockBackend, ReleaseSignal, BackendHealthProbe, AutoCloseable {
  public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_HEALTH_TIMEOUT = Duration.ofSeconds(2);
  public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(10);
  public static final String DEFAULT_ROOT = "/hostloom";

  /** The longest lease: 2^50 ms (about 35,700 years); longer ones are stored as this. */
  static final long MAX_LEASE_MILLIS = 1L << 50;

  private static final int MAX_ATTEMPTS = 16; // reads and conditional writes lost to other writers
  private static final int MAX_KEY = 8192;
  private static final int MAX_OWNER = 2048;
  private static final int MAX_DATA = 2048;
  private static final byte[] NOTHING = new byte[0];
  private static final CreateOptions PERSISTENT =
      CreateOptions.newBuilder(Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT).build();

  private final String root;
  private final String locks;
  private final String clock;
  private final Duration commandTimeout;
  private final Duration healthTimeout;
  private final ScheduledThreadPoolExecutor timer;
  private final ReleaseWaiters waiters; // null: release signal off
  private final ZooKeeperSession session;
  private final AtomicReference<CompletableFuture<Void>> layout = new AtomicReference<>();
  private volatile Consumer<String> roundTrips = rt -> {};
  private volatile boolean closed;

  private ZooKeeperLockBackend(Builder b) {
    this.root = b.root;
    this.locks = b.root + "/locks";
    this.clock = b.root + "/clock";
    this.commandTimeout = b.commandTimeout;
    this.healthTimeout = b.healthTimeout;
    this.timer = new ScheduledThreadPoolExecutor(1, ZooKeeperLockBackend::timerThread);
    timer.setRemoveOnCancelPolicy(true);
    this.waiters = b.releaseSignal ? new ReleaseWaiters(locks, timer) : null;
    try {
      this.session =
          new ZooKeeperSession(
              b.connectString,
              (int) Math.min(Integer.MAX_VALUE, b.sessionTimeout.toMillis()),
              waiters == null ? null : locks,
              waiters,
              waiters == null ? () -> {} : waiters::wakeAll,
              timer);
    } catch (IOException | RuntimeException e) {
      timer.shutdownNow();
      throw new IllegalArgumentException("cannot use connectString: " + e.getMessage(), e);
    }
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

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    checkKeyOwner(key, owner);
    checkData(data);
    long ms = leaseMillis(lease);
    String path = path(key);
    LeaseNode grant = LeaseNode.grant(owner, data, ms);
    return run(
        "acquire",
        (call, zk) ->
            snapshot(zk, path)
                .thenCompose(
                    s -> {
                      if (!s.exists()) { // never locked: the grant creates the znode
                        return create(call, zk, path, grant)
                            .thenApply(t -> t == null ? null : AcquireOutcome.granted(t));
                      }
                      if (s.liveOwnedBy(owner)) { // same owner: expiry only; token, data stay
                        return setData(call, zk, path, s.node().renewed(s.token(), ms), s.version())
                            .thenApply(st -> st == null ? null : AcquireOutcome.granted(s.token()));
                      }
                      if (s.live()) {
                        return done(AcquireOutcome.held(s.record()));
                      }
                      return setData(call, zk, path, grant, s.version()) // released or expired
                          .thenApply(
                              st -> st == null ? null : AcquireOutcome.granted(st.getMzxid()));
                    }));
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    checkKeyOwner(key, owner);
    long ms = leaseMillis(lease);
    String path = path(key);
    return run(
        "extend",
        (call, zk) ->
            snapshot(zk, path)
                .thenCompose(
                    s -> {
                      if (s.liveOwnedBy(owner)) {
                        return setData(call, zk, path, s.node().renewed(s.token(), ms), s.version())
                            .thenApply(st -> st == null ? null : ExtendOutcome.succeeded());
                      }
                      return done(
                          s.live() ? ExtendOutcome.mismatch(s.record()) : ExtendOutcome.absent());
                    }));
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    checkKeyOwner(key, owner);
    String path = path(key);
    return run(
        "release",
        (call, zk) ->
            snapshot(zk, path)
                .thenCompose(
                    s -> {
                      if (s.liveOwnedBy(owner)) {
                        return announced(call, zk, path, LeaseNode.RELEASED, s.version())
                            .thenApply(st -> st == null ? null : ReleaseOutcome.succeeded());
                      }
                      return done(
                          s.live() ? ReleaseOutcome.mismatch(s.record()) : ReleaseOutcome.absent());
                    }));
  }

  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    checkKeyOwner(key, expectedOwner);
    checkOwner(newOwner, "newOwner");
    checkData(newData);
    long ms = leaseMillis(lease);
    String path = path(key);
    LeaseNode grant = LeaseNode.grant(newOwner, newData, ms);
    return run(
        "replace",
        (call, zk) ->
            snapshot(zk, path)
                .thenCompose(
                    s -> {
                      if (s.liveOwnedBy(expectedOwner)) {
                        return announced(call, zk, path, grant, s.version())
                            .thenApply(
                                st -> st == null ? null : ReplaceOutcome.replaced(st.getMzxid()));
                      }
                      return done(
                          s.live() ? ReplaceOutcome.mismatch(s.record()) : ReplaceOutcome.absent());
                    }));
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    checkKey(key);
    String path = path(key);
    return run(
        "read",
        (call, zk) ->
            snapshot(zk, path)
                .thenApply(s -> s.live() ? Optional.of(s.record()) : Optional.empty()));
  }

  @Override
  public String name() {
    return "zookeeper";
  }

  // ---------------------------------------------------------------- steps

  /**
   * The lock znode as the server had it, and the server's now when it was read: the clock write's
   * {@code mtime}, or the record's own when a write of another session came between the two (the
   * read ran after both). Later than the true now never: a lease may look live a few ms longer than
   * it is, never shorter, and never longer than it was granted for.
   */
  private record Snapshot(LeaseNode node, Stat stat, long clockNow) {
    boolean exists() {
      return stat != null;
    }

    int version() {
      return stat.getVersion();
    }

    private long now() {
      return Math.max(clockNow, stat.getMtime());
    }

    boolean live() {
      return stat != null && node.leaseMillis() > 0 && stat.getMtime() + node.leaseMillis() > now();
    }

    boolean liveOwnedBy(String owner) {
      return live() && node.owner().equals(owner);
    }

    long token() {
      return node.tokenAt(stat.getMzxid());
    }

    LeaseRecord record() {
      Duration left = Duration.ofMillis(stat.getMtime() + node.leaseMillis() - now());
      return new LeaseRecord(node.owner(), node.data(), left, token());
    }
  }

  /**
   * One round trip, two requests: a write to the clock znode (its {@code mtime} is the server's
   * now), then the lock znode. A session's requests run in order, so the read sees every write
   * committed before that now.
   */
  private CompletableFuture<Snapshot> snapshot(ZooKeeper zk, String path) {
    roundTrips.accept("setData(clock)+getData");
    CompletableFuture<Stat> now = session.setData(zk, clock, NOTHING, -1);
    CompletableFuture<Node> node = session.getData(zk, path);
    return now.thenCombine(
        node,
        (c, n) -> {
          if (n == null) {
            return new Snapshot(null, null, c.getMtime());
          }
          LeaseNode lease = LeaseNode.decode(n.data());
          if (lease == null) {
            throw LockBackendException.other(
                "a lock znode holds bytes HostLoom did not write", null);
          }
          return new Snapshot(lease, n.stat(), c.getMtime());
        });
  }

  /** Creates the znode of a first grant: its {@code czxid}, or {@code null} when it exists. */
  private CompletableFuture<Long> create(Call<?> call, ZooKeeper zk, String path, LeaseNode grant) {
    return on(
        write(call, "create", session.create(zk, path, grant.encode())),
        (stat, t) ->
            t == null
                ? done(stat.getCzxid())
                : notApplied(call, t, Code.NODEEXISTS)
                    ? retry()
                    : CompletableFuture.failedFuture(t));
  }

  /**
   * {@code setData} conditioned on the version read; the new stat, or {@code null} when another
   * writer came first. Lock znodes are never deleted by this backend, so versions never start again
   * at 0 and a stale version cannot match a later incarnation.
   */
  private CompletableFuture<Stat> setData(
      Call<?> call, ZooKeeper zk, String path, LeaseNode next, int version) {
    return on(
        write(call, "setData", session.setData(zk, path, next.encode(), version)),
        (stat, t) ->
            t == null
                ? done(stat)
                : notApplied(call, t, Code.BADVERSION, Code.NONODE)
                    ? retry()
                    : CompletableFuture.failedFuture(t));
  }

  /**
   * A release or replace: the conditional {@code setData}, plus creating and deleting the child
   * {@code released} in the same {@code multi}, which the watchers of other sessions hear as a
   * {@code NodeDeleted} of that child (an extend or a grant only changes data). Nothing stays.
   */
  private CompletableFuture<Stat> announced(
      Call<?> call, ZooKeeper zk, String path, LeaseNode next, int version) {
    String signal = path + "/" + ReleaseWaiters.SIGNAL;
    List<Op> ops =
        List.of(
            Op.setData(path, next.encode(), version),
            Op.create(signal, NOTHING, PERSISTENT),
            Op.delete(signal, -1));
    return on(
        write(call, "multi(setData,create,delete)", session.multi(zk, ops)),
        (results, t) -> {
          if (t == null) {
            return done(((OpResult.SetDataResult) results.get(0)).getStat());
          }
          return notApplied(call, t, Code.BADVERSION, Code.NONODE)
              ? retry()
              : CompletableFuture.failedFuture(t);
        });
  }

  private <T> CompletableFuture<T> write(Call<?> call, String name, CompletableFuture<T> sent) {
    call.mayHaveWritten = true;
    roundTrips.accept(name);
    return sent;
  }

  /**
   * Whether {@code failure} is one of the answers {@code codes}, which say the write was not
   * applied (then nothing this call sent can have changed the lock).
   */
  private static boolean notApplied(Call<?> call, Throwable failure, Code... codes) {
    Code c = ZooKeeperFailures.code(failure);
    for (Code expected : codes) {
      if (c == expected) {
        call.mayHaveWritten = false;
        return true;
      }
    }
    return false;
  }

  // ---------------------------------------------------------------- the loop and its bounds

  /** One operation: bounded by the command timeout, retried when another writer came first. */
  private final class Call<T> {
    final String operation;
    final CompletableFuture<T> result = new CompletableFuture<>();
    volatile boolean mayHaveWritten;
    int attempts;

    Call(String operation) {
      this.operation = operation;
    }

    /** Starts the deadline; {@code false} when the backend closed meanwhile. */
    boolean start() {
      try {
        ScheduledFuture<?> deadline =
            timer.schedule(
                () -> fail(new TimeoutException("no answer within " + commandTimeout)),
                commandTimeout.toNanos(),
                TimeUnit.NANOSECONDS);
        result.whenComplete((r, t) -> deadline.cancel(false));
        return true;
      } catch (RejectedExecutionException e) {
        return false;
      }
    }

    void fail(Throwable t) {
      result.completeExceptionally(ZooKeeperFailures.map(operation, t, mayHaveWritten));
    }
  }

  /**
   * {@code attempt} answers {@code null} to be run again (it read a state another writer ended).
   */
  private <T> CompletableFuture<T> run(
      String operation, BiFunction<Call<T>, ZooKeeper, CompletableFuture<T>> attempt) {
    Call<T> call = new Call<>(operation);
    if (closed || !call.start()) {
      call.fail(LockBackendException.unavailable("ZooKeeper backend is closed", null));
    } else {
      next(call, attempt);
    }
    return call.result;
  }

  private <T> void next(
      Call<T> call, BiFunction<Call<T>, ZooKeeper, CompletableFuture<T>> attempt) {
    if (call.result.isDone()) {
      return;
    }
    if (++call.attempts > MAX_ATTEMPTS) {
      call.fail(
          LockBackendException.other(
              call.operation + ": still contended after " + MAX_ATTEMPTS + " attempts", null));
      return;
    }
    session
        .connection()
        .thenCompose(zk -> layout(zk).thenApply(v -> zk))
        .thenCompose(zk -> call.result.isDone() ? done(null) : attempt.apply(call, zk))
        .whenComplete(
            (r, t) -> {
              if (t == null && r != null) {
                call.result.complete(r);
              } else if (t == null) {
                next(call, attempt);
              } else if (ZooKeeperFailures.code(t) == Code.NONODE) {
                layout.set(null); // the clock or the lock folder was removed: make them again
                next(call, attempt);
              } else {
                call.fail(t);
              }
            });
  }

  /** Creates the root, lock folder and clock znodes once (they may exist already). */
  private CompletableFuture<Void> layout(ZooKeeper zk) {
    CompletableFuture<Void> known = layout.get();
    if (known != null && !known.isCompletedExceptionally()) {
      return known;
    }
    CompletableFuture<Void> mine = new CompletableFuture<>();
    if (!layout.compareAndSet(known, mine)) {
      return layout(zk);
    }
    CompletableFuture<Void> chain = done(null);
    for (String p : layoutPaths()) {
      chain =
          chain.thenCompose(
              v ->
                  on(
                      session.create(zk, p, NOTHING),
                      (s, t) ->
                          t == null || ZooKeeperFailures.code(t) == Code.NODEEXISTS
                              ? done(null)
                              : CompletableFuture.failedFuture(t)));
    }
    chain.whenComplete(
        (v, t) -> {
          if (t == null) {
            mine.complete(null);
          } else {
            mine.completeExceptionally(t);
          }
        });
    return mine;
  }

  private List<String> layoutPaths() {
    List<String> paths = new ArrayList<>();
    for (int i = root.indexOf('/', 1); i > 0; i = root.indexOf('/', i + 1)) {
      paths.add(root.substring(0, i));
    }
    paths.add(root);
    paths.add(locks);
    paths.add(clock);
    return paths;
  }

  private static <A, B> CompletableFuture<B> on(
      CompletableFuture<A> f, BiFunction<A, Throwable, CompletableFuture<B>> next) {
    return f.handle(next).thenCompose(Function.identity());
  }

  private static <T> CompletableFuture<T> done(T value) {
    return CompletableFuture.completedFuture(value);
  }

  private static <T> CompletableFuture<T> retry() {
    return CompletableFuture.completedFuture(null);
  }

  // ---------------------------------------------------------------- release signal, health

  @Override
  public CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait) {
    checkKey(key);
    Objects.requireNonNull(maxWait, "maxWait");
    if (maxWait.isNegative()) {
      throw new IllegalArgumentException("maxWait must not be negative but was " + maxWait);
    }
    if (waiters == null || maxWait.isZero() || closed) {
      return CompletableFuture.completedFuture(false);
    }
    return waiters.await(NodeNames.of(key), maxWait);
  }

  /** Whether this instance hears releases now (its session's watch is confirmed). */
  public boolean releaseSignalUp() {
    return waiters != null && session.watching();
  }

  /** Waits not yet ended. */
  int releaseWaiters() {
    return waiters == null ? 0 : waiters.pending();
  }

  /**
   * Healthy when the connected server answers an {@code exists} of the lock folder within the
   * health timeout (waiting for a connection counts against it).
   */
  @Override
  public CompletableFuture<BackendHealth> checkHealth() {
    CompletableFuture<BackendHealth> answer = new CompletableFuture<>();
    if (closed) {
      answer.complete(BackendHealth.unhealthy("ZooKeeper: backend closed"));
      return answer;
    }
    ScheduledFuture<?> deadline =
        timer.schedule(
            () ->
                answer.complete(
                    BackendHealth.unhealthy("ZooKeeper: no answer within " + healthTimeout)),
            healthTimeout.toNanos(),
            TimeUnit.NANOSECONDS);
    answer.whenComplete((h, t) -> deadline.cancel(false));
    session
        .connection()
        .thenCompose(zk -> session.exists(zk, locks))
        .whenComplete(
            (stat, t) ->
                answer.complete(
                    t == null
                        ? BackendHealth.healthy("ZooKeeper: connected")
                        : BackendHealth.unhealthy("ZooKeeper: " + describe(t))));
    return answer;
  }

  private static String describe(Throwable t) {
    Throwable c = ZooKeeperFailures.unwrap(t);
    Code code = ZooKeeperFailures.code(c);
    return code != null ? code.name() : c.getClass().getSimpleName();
  }

  /** Test hook: sees the name of every round trip as it is sent. */
  void onRoundTrip(Consumer<String> listener) {
    this.roundTrips = Objects.requireNonNull(listener, "listener");
  }

  ZooKeeperSession session() {
    return session;
  }

  /** Closes the session; leases stay on the server. Pending waits end {@code false}. */
  @Override
  public void close() {
    closed = true;
    if (waiters != null) {
      waiters.endAll();
    }
    session.close();
    timer.shutdown();
  }

  @Override
  public String toString() {
    return "ZooKeeperLockBackend[root=" + root + ", commandTimeout=" + commandTimeout + "]";
  }

  // ---------------------------------------------------------------- arguments

  private String path(String key) {
    return locks + "/" + NodeNames.of(key);
  }

  private static void checkKey(String key) {
    Objects.requireNonNull(key, "key");
    if (key.isEmpty() || key.length() > MAX_KEY) {
      throw new IllegalArgumentException(
          "key must be 1 to " + MAX_KEY + " chars but was " + key.length());
    }
  }

  private static void checkKeyOwner(String key, String owner) {
    checkKey(key);
    checkOwner(owner, "owner");
  }

  private static void checkOwner(String owner, String what) {
    Objects.requireNonNull(owner, what);
    if (owner.isEmpty() || owner.length() > MAX_OWNER) {
      throw new IllegalArgumentException(
          what + " must be 1 to " + MAX_OWNER + " chars but was " + owner.length());
    }
  }

  private static void checkData(String data) {
    Objects.requireNonNull(data, "data");
    if (data.length() > MAX_DATA) {
      throw new IllegalArgumentException(
          "data must be at most " + MAX_DATA + " chars but was " + data.length());
    }
  }

  /**
   * {@code lease} in whole milliseconds, rounded up (never 0), at most {@link #MAX_LEASE_MILLIS}.
   */
  static long leaseMillis(Duration lease) {
    Objects.requireNonNull(lease, "lease");
    if (lease.isNegative() || lease.isZero()) {
      throw new IllegalArgumentException("lease must be positive but was " + lease);
    }
    if (lease.compareTo(Duration.ofMillis(MAX_LEASE_MILLIS)) >= 0) {
      return MAX_LEASE_MILLIS;
    }
    long ms = lease.toMillis();
    return lease.equals(Duration.ofMillis(ms)) ? ms : ms + 1;
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
      this.sessionTimeout = positive(sessionTimeout, "sessionTimeout");
      return this;
    }

    /** Bound on every operation, waiting for a connection included. Default 5 s. */
    public Builder commandTimeout(Duration commandTimeout) {
      this.commandTimeout = positive(commandTimeout, "commandTimeout");
      return this;
    }

    /** Bound on {@link #checkHealth()}. Default 2 s. */
    public Builder healthTimeout(Duration healthTimeout) {
      this.healthTimeout = positive(healthTimeout, "healthTimeout");
      return this;
    }

    /**
     * The znode under which {@code locks/} and {@code clock} live, e.g. {@code /hostloom} (the
     * default); created on first use.
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
     * Whether {@code awaitRelease} listens (one persistent recursive watch on the lock folder per
     * session). Off: waits answer {@code false} at once and waiters poll. Default on.
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

    private static Duration positive(Duration d, String name) {
      Objects.requireNonNull(d, name);
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(name + " must be positive but was " + d);
      }
      return d;
    }
  }
}
