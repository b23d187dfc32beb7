package io.hostloom.zookeeper;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.locking.spi.support.BackendArguments;
import io.hostloom.zookeeper.ViewNode.Entry;
import io.hostloom.zookeeper.ViewNode.Role;
import io.hostloom.zookeeper.ViewUpdates.Step;
import java.time.Duration;
import java.util.BitSet;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The {@link io.hostloom.locking.spi.PermitLeases} view of a {@link ZooKeeperLockBackend} for one
 * permit count, as that interface's javadoc states it: all entries of a semaphore are one znode
 * {@code <root>/views/permits/<name>} ({@link ViewNode}, which also keeps the count its live
 * entries were granted with), and each operation is one {@link ViewUpdates} step on it (a refusal,
 * a refused extend or release and a read one round trip, a change two). A grant's token is the
 * least one at or above the key's floor whose remainder modulo the count is the lowest slot no live
 * entry's token has. A release is announced like the lock's. Thread-safe.
 */
final class ZooKeeperPermitLeases implements LockBackend {
  private final ViewUpdates updates;
  private final String folder;
  private final BackendArguments arguments;
  private final int permits;

  ZooKeeperPermitLeases(
      ViewUpdates updates, String folder, BackendArguments arguments, int permits) {
    this.updates = updates;
    this.folder = folder;
    this.arguments = arguments;
    this.permits = permits;
  }

  private String path(String key) {
    return folder + "/" + NodeNames.of(key);
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    arguments.acquire(key, owner, data, lease);
    long ms = ZooKeeperRecordStore.leaseMillis(lease);
    return updates.run(
        "permit acquire",
        path(key),
        (live, now, floor) -> acquire(live, now, floor, owner, data, now + ms));
  }

  private Step<AcquireOutcome> acquire(
      ViewNode live, long now, long floor, String owner, String data, long expiry) {
    Optional<Entry> mine = live.find(Role::permit, owner);
    if (mine.isPresent()) { // a retry: same token, same data
      Entry e = mine.get();
      return Step.write(AcquireOutcome.granted(e.token()), live.with(e, e.expiringAt(expiry)));
    }
    long held = live.count(Role::permit);
    if (held >= permits || (held > 0 && live.permits() != permits)) {
      // full, or held under another count: the first to expire carries its owner's count as data
      return Step.answer(
          AcquireOutcome.held(live.firstToExpire(Role::permit).orElseThrow().recordAt(now)));
    }
    BitSet used = new BitSet();
    for (Entry e : live.entries()) {
      if (e.role() == Role.PERMIT) {
        used.set((int) Math.floorMod(e.token(), (long) permits));
      }
    }
    int slot = used.nextClearBit(0);
    long token = floor + Math.floorMod(slot - floor, (long) permits);
    Entry added = new Entry(Role.PERMIT, owner, data, token, expiry);
    return Step.write(AcquireOutcome.granted(token), live.granting(added, permits));
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    arguments.extend(key, owner, lease);
    long ms = ZooKeeperRecordStore.leaseMillis(lease);
    return updates.run(
        "permit extend",
        path(key),
        (live, now, floor) ->
            live.find(Role::permit, owner)
                .map(
                    e ->
                        Step.write(ExtendOutcome.succeeded(), live.with(e, e.expiringAt(now + ms))))
                .orElseGet(() -> Step.answer(ExtendOutcome.absent())));
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    arguments.release(key, owner);
    return updates.run(
        "permit release",
        path(key),
        (live, now, floor) ->
            live.find(Role::permit, owner)
                .map(e -> Step.release(ReleaseOutcome.succeeded(), live.with(e, null)))
                .orElseGet(() -> Step.answer(ReleaseOutcome.absent())));
  }

  /** Not part of the view: the lease engine never replaces. */
  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    arguments.replace(key, expectedOwner, newOwner, newData, lease);
    return CompletableFuture.failedFuture(
        LockBackendException.other("a ZooKeeper permit view does not replace entries", null));
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    arguments.read(key);
    return updates.run(
        "permit read",
        path(key),
        (live, now, floor) ->
            Step.answer(live.firstToExpire(Role::permit).map(e -> e.recordAt(now))));
  }

  @Override
  public String name() {
    return "zookeeper";
  }

  @Override
  public String toString() {
    return "ZooKeeperPermitLeases[" + folder + ", permits=" + permits + "]";
  }
}
