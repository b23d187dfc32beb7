package io.hostloom.zookeeper;

import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.support.Claim;
import io.hostloom.locking.spi.support.LeaseRounding;
import io.hostloom.locking.spi.support.VersionedRecord;
import io.hostloom.locking.spi.support.VersionedRecordStore;
import io.hostloom.locking.spi.support.WriteResult;
import io.hostloom.zookeeper.ZooKeeperSession.Node;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
import org.apache.zookeeper.data.Stat;

/**
 * The versioned-record strategy over ZooKeeper: one persistent znode per key, {@code
 * <root>/locks/<name>} ({@link NodeNames}), holding a {@link LeaseNode}; the version is the znode's
 * data version. A release writes {@link LeaseNode#RELEASED} rather than deleting the znode.
 *
 * <p><b>Version wrap.</b> The data version is an {@code int} the server increments with overflow,
 * and an expected version of -1 means "any": a write conditioned on a version read as -1 would be
 * no condition at all, and two writers of one read could both win. So no write here is ever
 * conditioned on -1. A write on the last version ({@code Integer.MAX_VALUE}), or on a negative one
 * an older release let the counter wrap to, deletes and recreates the znode in one {@code multi}
 * (the delete conditioned on that version), so versions start again from 1. A znode found at -1
 * (only an older release leaves one there) is written together with creating its child {@link
 * #WRAPPED}: of the writers of one read, only the first creates it; the child stays until the znode
 * is next recreated.
 *
 * <p><b>The server's now</b> is the {@code mtime} of an unconditional write to {@code
 * <root>/clock}, sent in the same round trip just before each read of a lock znode (a session's
 * requests run in order, so the read sees every write committed before that now). Both {@code
 * mtime}s are stamped by the ZooKeeper leader.
 */
final class ZooKeeperRecordStore implements VersionedRecordStore<ZooKeeperRecordStore.Version> {
  /** The longest lease: 2^50 ms; longer ones are stored as this. */
  static final long MAX_LEASE_MILLIS = 1L << 50;

  /** The guard child of a znode that was found at version -1 (see the class comment). */
  static final String WRAPPED = "wrapped";

  /** The folder under the root that holds the native views' folders, apart from the locks. */
  static final String VIEWS = "views";

  /** The view folder of reader-writer locks. */
  static final String READ_WRITE = "rw";

  /** The view folder of semaphores. */
  static final String PERMITS = "permits";

  /** The version at which the next write recreates the znode instead of incrementing it. */
  static final int LAST_VERSION = Integer.MAX_VALUE;

  /** An expected version of -1 is "any version" to the server: never sent as a condition. */
  private static final int ANY_VERSION = -1;

  private static final byte[] NOTHING = new byte[0];
  private static final CreateOptions PERSISTENT =
      CreateOptions.newBuilder(Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT).build();

  /**
   * What a conditional write needs: the data version read, whether the record was a live lease then
   * (a new grant over a live lease is a replace, which is announced to waiters), and whether the
   * znode had a child then (only {@link #WRAPPED} lasts).
   */
  record Version(int dataVersion, boolean live, boolean hasChild) {}

  private final ZooKeeperSession session;
  private final String root;
  private final String locks;
  private final String views;
  private final String clock;
  private final long connectWaitMillis;
  private final AtomicReference<CompletableFuture<Void>> layout = new AtomicReference<>();
  private volatile Consumer<String> roundTrips = rt -> {};

  ZooKeeperRecordStore(ZooKeeperSession session, String root, Duration connectWait) {
    this.session = session;
    this.root = root;
    this.locks = locksFolder(root);
    this.views = viewsFolder(root);
    this.clock = root + "/clock";
    this.connectWaitMillis = Math.max(1, connectWait.toMillis());
  }

  String locksFolder() {
    return locks;
  }

  /** The folder of a native view's znodes ({@link #READ_WRITE} or {@link #PERMITS}). */
  String viewFolder(String kind) {
    return viewFolder(root, kind);
  }

  /** The lock znodes' folder under {@code root}. */
  static String locksFolder(String root) {
    return root + "/locks";
  }

  /** The folder of the view folders under {@code root}. */
  static String viewsFolder(String root) {
    return root + "/" + VIEWS;
  }

  /** The folder of a native view's znodes under {@code root}. */
  static String viewFolder(String root, String kind) {
    return viewsFolder(root) + "/" + kind;
  }

  void onRoundTrip(Consumer<String> listener) {
    this.roundTrips = listener;
  }

  /** Reports a round trip made outside the store (the health probe) to the same listener. */
  void roundTrip(String name) {
    roundTrips.accept(name);
  }

  @Override
  public CompletableFuture<Optional<VersionedRecord<Version>>> read(String key) {
    String path = path(key);
    return connected().thenCompose(zk -> snapshot(zk, path, "setData(clock)+getData"));
  }

  /** Create first, with the read pipelined behind it: a lost create knows the current record. */
  @Override
  public CompletableFuture<WriteResult<Version>> create(String key, Claim claim) {
    String path = path(key);
    byte[] bytes = node(claim).encode();
    return connected()
        .thenCompose(
            zk -> {
              roundTrips.accept("create+setData(clock)+getData");
              CompletableFuture<Stat> created = session.create(zk, path, bytes);
              CompletableFuture<Optional<VersionedRecord<Version>>> current =
                  snapshot(zk, path, null);
              return on(
                  created,
                  (stat, t) -> {
                    if (t == null) {
                      return done(WriteResult.written(stat.getCzxid()));
                    }
                    if (ZooKeeperFailures.code(t) != Code.NODEEXISTS) {
                      return CompletableFuture.failedFuture(writeFailure(t));
                    }
                    return current.handle(
                        (c, readFailed) ->
                            readFailed == null ? WriteResult.lost(c) : WriteResult.lost());
                  });
            });
  }

  @Override
  public CompletableFuture<WriteResult<Version>> compareAndSet(
      String key, Version version, Claim claim) {
    String path = path(key);
    LeaseNode next = node(claim);
    boolean replace = claim.isNewGrant() && version.live();
    return connected()
        .thenCompose(
            zk ->
                writeOver(
                        zk, path, next.encode(), version.dataVersion(), version.hasChild(), replace)
                    .thenApply(
                        stat ->
                            stat == null
                                ? WriteResult.<Version>lost()
                                : WriteResult.<Version>written(next.tokenAt(stat.getMzxid()))));
  }

  @Override
  public CompletableFuture<WriteResult<Version>> compareAndDelete(String key, Version version) {
    String path = path(key);
    return connected()
        .thenCompose(
            zk ->
                writeOver(
                        zk,
                        path,
                        LeaseNode.RELEASED.encode(),
                        version.dataVersion(),
                        version.hasChild(),
                        true)
                    .thenApply(
                        stat ->
                            stat == null ? WriteResult.<Version>lost() : WriteResult.deleted()));
  }

  /** Expired records stay: a later grant overwrites them by version. No request. */
  @Override
  public CompletableFuture<WriteResult<Version>> evictExpired(String key, Version version) {
    return done(WriteResult.deleted());
  }

  @Override
  public String describe(Throwable error) {
    Throwable t = ZooKeeperFailures.unwrap(error);
    Code code = ZooKeeperFailures.code(t);
    return code != null ? code.name() : t.getClass().getSimpleName();
  }

  // ---------------------------------------------------------------- requests

  /** One round trip: the clock write, then the lock znode; the record as of the server's now. */
  private CompletableFuture<Optional<VersionedRecord<Version>>> snapshot(
      ZooKeeper zk, String path, String roundTrip) {
    return readAt(zk, path, roundTrip).thenApply(at -> record(at.node(), at.clockNow()));
  }

  /**
   * A znode as of the server's now, for the native views too.
   *
   * @param node the znode, {@code null} when absent
   * @param clockNow the {@code mtime} of the clock write sent just before the read
   * @param clockZxid that write's {@code mzxid}: every later transaction's zxid is larger
   */
  record NodeAt(Node node, long clockNow, long clockZxid) {
    /**
     * The server's now for the node: the clock's, or the node's own {@code mtime} when a write of
     * another session came between (the read ran after both), so never later than the true now.
     */
    long now() {
      return node == null ? clockNow : Math.max(clockNow, node.stat().getMtime());
    }
  }

  /**
   * One round trip: the clock write, then {@code path}, pipelined. Fails {@code UNAVAILABLE}.
   *
   * @param roundTrip the round trip's name for the listener; {@code null} when pipelined behind a
   *     write, in that write's round trip
   */
  CompletableFuture<NodeAt> readAt(ZooKeeper zk, String path, String roundTrip) {
    if (roundTrip != null) {
      roundTrips.accept(roundTrip);
    }
    CompletableFuture<Stat> now = session.setData(zk, clock, NOTHING, -1);
    CompletableFuture<Node> node = session.getData(zk, path);
    return readFailure(now.thenCombine(node, (c, n) -> new NodeAt(n, c.getMtime(), c.getMzxid())));
  }

  /**
   * Creates the persistent znode {@code path} with {@code bytes}: its stat, or {@code null} when it
   * exists already (nothing changed). One round trip.
   */
  CompletableFuture<Stat> createNode(ZooKeeper zk, String path, byte[] bytes) {
    roundTrips.accept("create");
    return on(
        session.create(zk, path, bytes),
        (stat, t) -> {
          if (t == null) {
            return done(stat);
          }
          return ZooKeeperFailures.code(t) == Code.NODEEXISTS
              ? done(null)
              : CompletableFuture.failedFuture(writeFailure(t));
        });
  }

  /**
   * The record of {@code n} at {@code clockNow}, or, when a write of another session came between
   * the clock write and the read, at the record's own {@code mtime} (the read ran after both). So
   * the now used is never later than the true one, and the time left never exceeds the lease.
   */
  private static Optional<VersionedRecord<Version>> record(Node n, long clockNow) {
    if (n == null) {
      return Optional.empty();
    }
    LeaseNode lease = LeaseNode.decode(n.data());
    if (lease == null) {
      throw LockBackendException.other("a lock znode holds bytes HostLoom did not write", null);
    }
    Stat s = n.stat();
    long left = s.getMtime() + lease.leaseMillis() - Math.max(clockNow, s.getMtime());
    boolean live = lease.leaseMillis() > 0 && left > 0;
    return Optional.of(
        new VersionedRecord<>(
            new Version(s.getVersion(), live, s.getNumChildren() > 0),
            lease.owner(),
            lease.data(),
            lease.tokenAt(s.getMzxid()),
            Duration.ofMillis(live ? left : 0)));
  }

  /**
   * Writes {@code bytes} over the znode read at {@code dataVersion}: its stat, or {@code null} when
   * the version condition failed (nothing changed). One round trip. When {@code announce}, the
   * write creates and deletes the child {@code released} in the same {@code multi}: other sessions'
   * watches hear a {@code NodeDeleted} of that child, which other writes never cause; nothing stays
   * behind.
   *
   * @param hasChild whether the znode had a child when read (only {@link #WRAPPED} lasts)
   */
  CompletableFuture<Stat> writeOver(
      ZooKeeper zk,
      String path,
      byte[] bytes,
      int dataVersion,
      boolean hasChild,
      boolean announce) {
    List<Op> ops = new ArrayList<>(write(path, bytes, dataVersion, hasChild));
    if (announce) {
      roundTrips.accept("multi(setData,create,delete)");
      String signal = path + "/" + ReleaseEvents.SIGNAL;
      ops.add(Op.create(signal, NOTHING, PERSISTENT));
      ops.add(Op.delete(signal, ANY_VERSION)); // created just before, in this transaction
    } else if (ops.size() == 1) {
      roundTrips.accept("setData");
      return conditional(session.setData(zk, path, bytes, dataVersion), Function.identity());
    } else {
      roundTrips.accept("multi(write)");
    }
    return conditional(session.multi(zk, ops), ZooKeeperRecordStore::lastSetData);
  }

  /**
   * The ops of writing {@code bytes} over the znode read at version {@code v}, never conditioned on
   * -1 (see the class comment): a {@code setData} on that version; at the last or a negative
   * version, a delete on it and a fresh znode; at -1, the guard child with the write.
   */
  private static List<Op> write(String path, byte[] bytes, int v, boolean hasChild) {
    if (v == ANY_VERSION) {
      // no version condition is possible: the guard child is it (NODEEXISTS for a later writer)
      return List.of(
          Op.create(path + "/" + WRAPPED, NOTHING, PERSISTENT), Op.setData(path, bytes, v));
    }
    if (v < 0 || v == LAST_VERSION) {
      List<Op> ops = new ArrayList<>(4);
      if (hasChild) {
        ops.add(Op.delete(path + "/" + WRAPPED, ANY_VERSION)); // the delete below is the condition
      }
      ops.add(Op.delete(path, v));
      ops.add(Op.create(path, NOTHING, PERSISTENT));
      ops.add(Op.setData(path, bytes, 0));
      return ops;
    }
    return List.of(Op.setData(path, bytes, v));
  }

  private static Stat lastSetData(List<OpResult> results) {
    Stat stat = null;
    for (OpResult r : results) {
      if (r instanceof OpResult.SetDataResult set) {
        stat = set.getStat();
      }
    }
    return stat;
  }

  /** The write's stat, or {@code null} when its version condition failed (nothing changed). */
  private static <R> CompletableFuture<Stat> conditional(
      CompletableFuture<R> sent, Function<R, Stat> stat) {
    return on(
        sent,
        (r, t) -> {
          if (t == null) {
            return done(stat.apply(r));
          }
          Code c = ZooKeeperFailures.code(t);
          // NODEEXISTS: another writer of the same read created the guard child first
          return c == Code.BADVERSION || c == Code.NONODE || c == Code.NODEEXISTS
              ? done(null)
              : CompletableFuture.failedFuture(writeFailure(t));
        });
  }

  /** A write's failure: {@code TIMEOUT} when the connection failed (it may have been applied). */
  private static LockBackendException writeFailure(Throwable t) {
    Throwable c = ZooKeeperFailures.unwrap(t);
    if (c instanceof LockBackendException e) {
      return e;
    }
    return ZooKeeperFailures.isConnectionProblem(c)
        ? LockBackendException.timeout("ZooKeeper write: " + describeCode(c), c)
        : LockBackendException.other("ZooKeeper write: " + describeCode(c), c);
  }

  /** A read's failure: {@code UNAVAILABLE}, whatever it was: a read changes no lock. */
  private static <T> CompletableFuture<T> readFailure(CompletableFuture<T> read) {
    return read.exceptionallyCompose(
        t -> {
          Throwable c = ZooKeeperFailures.unwrap(t);
          if (c instanceof LockBackendException e) {
            return CompletableFuture.failedFuture(e);
          }
          return CompletableFuture.failedFuture(
              LockBackendException.unavailable("ZooKeeper read: " + describeCode(c), c));
        });
  }

  private static String describeCode(Throwable t) {
    Code c = ZooKeeperFailures.code(t);
    return c != null ? c.name() : ZooKeeperFailures.unwrap(t).getClass().getSimpleName();
  }

  // ---------------------------------------------------------------- connection and layout

  /**
   * What the first operation would pay for, now: waits for the connection (at most the connect
   * wait, then {@code UNAVAILABLE}), creates the layout unless this store did already, then one
   * {@code exists} of the root. A failure leaves the layout to be tried again.
   */
  CompletableFuture<Void> warmUp() {
    return connected()
        .thenCompose(
            zk -> {
              roundTrips.accept("exists");
              return readFailure(session.exists(zk, root));
            })
        .thenApply(stat -> null);
  }

  /**
   * The handle once connected and the layout exists. Waits for a connection at most the connect
   * wait, then fails {@code UNAVAILABLE}: nothing was sent.
   */
  CompletableFuture<ZooKeeper> connected() {
    return session
        .connection()
        .copy()
        .orTimeout(connectWaitMillis, TimeUnit.MILLISECONDS)
        .exceptionallyCompose(
            t ->
                CompletableFuture.failedFuture(
                    ZooKeeperFailures.unwrap(t) instanceof LockBackendException e
                        ? e
                        : LockBackendException.unavailable(
                            "ZooKeeper: not connected within " + connectWaitMillis + " ms", t)))
        .thenCompose(zk -> layout(zk).thenApply(v -> zk));
  }

  /**
   * Creates the root, lock and view folders and clock znodes once per store (they may exist
   * already).
   */
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
    readFailure(chain)
        .whenComplete(
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
    paths.add(views);
    paths.add(viewFolder(READ_WRITE));
    paths.add(viewFolder(PERMITS));
    paths.add(clock);
    return paths;
  }

  private String path(String key) {
    return locks + "/" + NodeNames.of(key);
  }

  /** A lease in whole milliseconds, rounded up, at most {@link #MAX_LEASE_MILLIS}. */
  static long leaseMillis(Duration lease) {
    return lease.compareTo(Duration.ofMillis(MAX_LEASE_MILLIS)) >= 0
        ? MAX_LEASE_MILLIS
        : LeaseRounding.ceilMillis(lease);
  }

  private static LeaseNode node(Claim claim) {
    long ms = leaseMillis(claim.lease()); // already rounded up to whole ms
    return claim.isNewGrant()
        ? LeaseNode.grant(claim.owner(), claim.data(), ms)
        : new LeaseNode(claim.owner(), claim.data(), ms, claim.keptToken());
  }

  private static <A, B> CompletableFuture<B> on(
      CompletableFuture<A> f, BiFunction<A, Throwable, CompletableFuture<B>> next) {
    return f.handle(next).thenCompose(Function.identity());
  }

  private static <T> CompletableFuture<T> done(T value) {
    return CompletableFuture.completedFuture(value);
  }
}
