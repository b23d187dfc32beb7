package io.hostloom.zookeeper;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.locking.spi.support.BackendArguments;
import io.hostloom.locking.spi.support.PermitEntries;
import io.hostloom.locking.spi.support.ReadWriteEntries;
import io.hostloom.locking.spi.support.ViewRules;
import io.hostloom.locking.spi.support.ViewStep;
import io.hostloom.zookeeper.ViewUpdates.Step;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One native view of a {@link ZooKeeperLockBackend}: a {@link io.hostloom.locking.spi.PermitLeases}
 * view of one permit count, or the read or the write view of {@link
 * io.hostloom.locking.spi.ReadWriteLeases}, as those interfaces' javadoc states them. All entries
 * of a key are one znode {@code <folder>/<name>} ({@link ViewNode}), and each operation is one
 * {@link ViewUpdates} step on it that decides with the shared {@link ViewRules} at the server's
 * now: a decision that leaves the live entries as they were (a refusal, a refused extend or
 * release) writes nothing and costs one round trip, a change two; a read is one. A release that
 * removed an entry is announced like the lock's, so {@code awaitRelease} of the key wakes on it.
 * Thread-safe.
 *
 * @param <S> the key state of the view's kind
 */
final class ZooKeeperView<S> implements LockBackend {
  /** How a kind of view reads its state from a view znode and writes it back. */
  record Codec<S>(Function<ViewNode, S> read, Function<S, ViewNode> write) {}

  static final Codec<PermitEntries> PERMITS = new Codec<>(ViewNode::permitEntries, ViewNode::of);
  static final Codec<ReadWriteEntries> READ_WRITE =
      new Codec<>(ViewNode::readWriteEntries, ViewNode::of);

  private static final BackendArguments ARGUMENTS = ZooKeeperLockBackend.VIEW_ARGUMENTS;

  private final ViewUpdates updates;
  private final String folder;
  private final String name;
  private final Codec<S> codec;
  private final ViewRules<S> rules;

  /**
   * @param folder the view znodes' folder
   * @param name the view's name in failures ("permit", "rw read", "rw write")
   */
  ZooKeeperView(
      ViewUpdates updates, String folder, String name, Codec<S> codec, ViewRules<S> rules) {
    this.updates = updates;
    this.folder = folder;
    this.name = name;
    this.codec = codec;
    this.rules = rules;
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    ARGUMENTS.acquire(key, owner, data, lease);
    long nanos = ViewNode.leaseNanos(lease);
    return decide(
        "acquire",
        key,
        (s, now, floor) -> rules.acquire().decide(s, owner, data, now, nanos, floor));
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    ARGUMENTS.extend(key, owner, lease);
    long nanos = ViewNode.leaseNanos(lease);
    return decide("extend", key, (s, now, floor) -> rules.extend().decide(s, owner, now, nanos));
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    ARGUMENTS.release(key, owner);
    return decide("release", key, (s, now, floor) -> rules.release().decide(s, owner, now));
  }

  /** Not part of the views: the lease engine never replaces. */
  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    ARGUMENTS.replace(key, expectedOwner, newOwner, newData, lease);
    return CompletableFuture.failedFuture(
        LockBackendException.other("a ZooKeeper " + name + " view does not replace entries", null));
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    ARGUMENTS.read(key);
    return updates.run(
        name + " read",
        path(key),
        (live, now, floor) ->
            Step.answer(rules.read().at(codec.read().apply(live), ViewNode.nanos(now))));
  }

  @Override
  public String name() {
    return "zookeeper";
  }

  @Override
  public String toString() {
    return "ZooKeeperView[" + folder + ", " + name + "]";
  }

  /** A rule applied to a key's live state at the server's now, in nanoseconds. */
  private interface Rule<S, O> {
    ViewStep<S, O> at(S state, long now, long floor);
  }

  private <O> CompletableFuture<O> decide(String operation, String key, Rule<S, O> rule) {
    return updates.run(
        name + " " + operation,
        path(key),
        (live, now, floor) -> {
          S before = codec.read().apply(live);
          ViewStep<S, O> step = rule.at(before, ViewNode.nanos(now), floor);
          if (step.next().equals(before)) {
            return Step.answer(step.outcome());
          }
          ViewNode next = codec.write().apply(step.next());
          return step.outcome() instanceof ReleaseOutcome r && r.released()
              ? Step.release(step.outcome(), next)
              : Step.write(step.outcome(), next);
        });
  }

  private String path(String key) {
    return folder + "/" + NodeNames.of(key);
  }
}
