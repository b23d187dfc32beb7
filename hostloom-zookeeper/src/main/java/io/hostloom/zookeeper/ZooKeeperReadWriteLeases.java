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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * One of the two {@link io.hostloom.locking.spi.ReadWriteLeases} views of a {@link
 * ZooKeeperLockBackend} (read or write), as that interface's javadoc states them: all entries of a
 * reader-writer key are one znode {@code <root>/views/rw/<name>} ({@link ViewNode}), and each
 * operation is one {@link ViewUpdates} step on it (a refusal, a refused extend or release and a
 * read one round trip, a change two). A release (reader, holding or waiting writer) is announced
 * like the lock's, so {@code awaitRelease} of the view key wakes on it. Thread-safe.
 */
final class ZooKeeperReadWriteLeases implements LockBackend {
  private final ViewUpdates updates;
  private final String folder;
  private final BackendArguments arguments;
  private final boolean write;
  private final int maxReaders;

  ZooKeeperReadWriteLeases(
      ViewUpdates updates,
      String folder,
      BackendArguments arguments,
      boolean write,
      int maxReaders) {
    this.updates = updates;
    this.folder = folder;
    this.arguments = arguments;
    this.write = write;
    this.maxReaders = maxReaders;
  }

  private String path(String key) {
    return folder + "/" + NodeNames.of(key);
  }

  private String op(String what) {
    return (write ? "rw write " : "rw read ") + what;
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    arguments.acquire(key, owner, data, lease);
    long ms = ZooKeeperRecordStore.leaseMillis(lease);
    return updates.run(
        op("acquire"),
        path(key),
        write
            ? (live, now, floor) -> writeAcquire(live, now, floor, owner, data, now + ms)
            : (live, now, floor) -> readAcquire(live, now, floor, owner, data, now + ms));
  }

  private Step<AcquireOutcome> readAcquire(
      ViewNode live, long now, long floor, String owner, String data, long expiry) {
    Optional<Entry> mine = live.find(Role::reader, owner);
    if (mine.isPresent()) { // a retry: same token, same data
      Entry e = mine.get();
      return Step.write(AcquireOutcome.granted(e.token()), live.with(e, e.expiringAt(expiry)));
    }
    Optional<Entry> writer =
        live.firstToExpire(Role::writer); // holding or waiting: writer preference
    if (writer.isPresent()) {
      return Step.answer(AcquireOutcome.held(writer.orElseThrow().recordAt(now)));
    }
    if (live.count(Role::reader) >= maxReaders) {
      return Step.answer(
          AcquireOutcome.held(live.firstToExpire(Role::reader).orElseThrow().recordAt(now)));
    }
    Entry added = new Entry(Role.READER, owner, data, floor, expiry);
    return Step.write(AcquireOutcome.granted(floor), live.granting(added, live.permits()));
  }

  private static Step<AcquireOutcome> writeAcquire(
      ViewNode live, long now, long floor, String owner, String data, long expiry) {
    Optional<Entry> writer = live.firstToExpire(Role::writer);
    if (writer.isPresent() && !writer.get().owner().equals(owner)) {
      return Step.answer(AcquireOutcome.held(writer.orElseThrow().recordAt(now)));
    }
    Entry mine = writer.orElse(null);
    if (mine != null && mine.role() == Role.HOLDING_WRITER) { // a retry: same token, same data
      return Step.write(
          AcquireOutcome.granted(mine.token()), live.with(mine, mine.expiringAt(expiry)));
    }
    Optional<Entry> reader = live.firstToExpire(Role::reader);
    if (reader.isPresent()) { // wait, and keep new readers out meanwhile
      Entry waiting = new Entry(Role.WAITING_WRITER, owner, data, 0, expiry);
      return Step.write(
          AcquireOutcome.held(reader.orElseThrow().recordAt(now)), live.with(mine, waiting));
    }
    Entry holding = new Entry(Role.HOLDING_WRITER, owner, data, floor, expiry);
    return Step.write(
        AcquireOutcome.granted(floor), live.with(mine, null).granting(holding, live.permits()));
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    arguments.extend(key, owner, lease);
    long ms = ZooKeeperRecordStore.leaseMillis(lease);
    Predicate<Role> extendable = write ? Role::holdingWriter : Role::reader;
    return updates.run(
        op("extend"),
        path(key),
        (live, now, floor) ->
            live.find(extendable, owner)
                .map(
                    e ->
                        Step.write(ExtendOutcome.succeeded(), live.with(e, e.expiringAt(now + ms))))
                .orElseGet(() -> Step.answer(ExtendOutcome.absent())));
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    arguments.release(key, owner);
    Predicate<Role> mine =
        write ? Role::writer : Role::reader; // a waiting writer gives up this way too
    return updates.run(
        op("release"),
        path(key),
        (live, now, floor) ->
            live.find(mine, owner)
                .map(e -> Step.release(ReleaseOutcome.succeeded(), live.with(e, null)))
                .orElseGet(() -> Step.answer(ReleaseOutcome.absent())));
  }

  /** Not part of the views: the lease engine never replaces. */
  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    arguments.replace(key, expectedOwner, newOwner, newData, lease);
    return CompletableFuture.failedFuture(
        LockBackendException.other(
            "a ZooKeeper reader-writer view does not replace entries", null));
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    arguments.read(key);
    Predicate<Role> shown = write ? Role::writer : Role::reader;
    return updates.run(
        op("read"),
        path(key),
        (live, now, floor) -> Step.answer(live.firstToExpire(shown).map(e -> e.recordAt(now))));
  }

  @Override
  public String name() {
    return "zookeeper";
  }

  @Override
  public String toString() {
    return "ZooKeeperReadWriteLeases["
        + folder
        + (write ? ", write" : ", read, readers=" + maxReaders)
        + "]";
  }
}
