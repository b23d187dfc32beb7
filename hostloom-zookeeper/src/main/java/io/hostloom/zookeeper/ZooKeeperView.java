package io.hostloom.zookeeper;

import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.support.PermitEntries;
import io.hostloom.locking.spi.support.ReadWriteEntries;
import io.hostloom.locking.spi.support.RuleView;
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
 * {@link ViewUpdates} step on it that decides with the shared {@link ViewRules} at the server's now
 * ({@link RuleView} maps the lease engine's operations to them): a decision that leaves the live
 * entries as they were (a refusal, a refused extend or release) writes nothing and costs one round
 * trip, a change two; a read is one. A release that removed an entry is announced like the lock's,
 * so {@code awaitRelease} of the key wakes on it. Thread-safe.
 *
 * @param <S> the key state of the view's kind
 */
final class ZooKeeperView<S> extends RuleView<S> {
  /** How a kind of view reads its state from a view znode and writes it back. */
  record Codec<S>(Function<ViewNode, S> read, Function<S, ViewNode> write) {}

  static final Codec<PermitEntries> PERMITS = new Codec<>(ViewNode::permitEntries, ViewNode::of);
  static final Codec<ReadWriteEntries> READ_WRITE =
      new Codec<>(ViewNode::readWriteEntries, ViewNode::of);

  private final ViewUpdates updates;
  private final String folder;
  private final Codec<S> codec;

  /**
   * @param folder the view znodes' folder
   * @param view the view's name in failures ("permit view", "read view", "write view")
   */
  ZooKeeperView(
      ViewUpdates updates, String folder, String view, Codec<S> codec, ViewRules<S> rules) {
    super(rules, ZooKeeperLockBackend.VIEW_ARGUMENTS, view);
    this.updates = updates;
    this.folder = folder;
    this.codec = codec;
  }

  /** Whole milliseconds, as every expiry in a view znode is ({@link ViewNode#leaseNanos}). */
  @Override
  protected long leaseNanos(Duration lease) {
    return ViewNode.leaseNanos(lease);
  }

  @Override
  protected <O> CompletableFuture<O> apply(String operation, String key, Decision<S, O> decision) {
    return updates.run(
        view() + " " + operation,
        path(key),
        (live, now, floor) -> {
          S before = codec.read().apply(live);
          ViewStep<S, O> step = decision.at(before, ViewNode.nanos(now), floor);
          if (step.next().equals(before)) {
            return Step.answer(step.outcome());
          }
          ViewNode next = codec.write().apply(step.next());
          return step.outcome() instanceof ReleaseOutcome r && r.released()
              ? Step.release(step.outcome(), next)
              : Step.write(step.outcome(), next);
        });
  }

  @Override
  protected CompletableFuture<Optional<LeaseRecord>> peek(String key, ViewRules.Read<S> read) {
    return updates.run(
        view() + " read",
        path(key),
        (live, now, floor) -> Step.answer(read.at(codec.read().apply(live), ViewNode.nanos(now))));
  }

  @Override
  public String name() {
    return "zookeeper";
  }

  @Override
  public String toString() {
    return "ZooKeeperView[" + folder + ", " + view() + "]";
  }

  private String path(String key) {
    return folder + "/" + NodeNames.of(key);
  }
}
