package io.hostloom.benchmarks.redis;

import java.time.Duration;
import java.util.List;

/**
 * One library under test, set up against the shared Redis with the common client settings. A peer
 * hands out {@link Contender}s: one per benchmark thread, standing for one application instance.
 */
public interface LockPeer extends AutoCloseable {

  /** Short label for tables and the chart. */
  String name();

  /** How this peer is configured (client, connections, timeouts, lease, waiting), for the docs. */
  List<String> configuration();

  /** Whether a waiting contender is woken by a release, or polls; for the hand-off table. */
  String waitingMode();

  /** A diagnostic row (HostLoom's own parts), left out of the peer comparisons. */
  default boolean diagnostic() {
    return false;
  }

  /** The Redis key names this peer's lock on {@code key} occupies, for inspection. */
  default String describeKeys(String key) {
    return key;
  }

  /** A new contender; contenders are used by one thread each. */
  Contender contender(int index);

  @Override
  void close();

  /** One thread's view of the lock: at most one lock held at a time. */
  interface Contender extends AutoCloseable {

    /** One attempt, no waiting; true when granted (then {@link #unlock()} must follow). */
    boolean tryLock(String key) throws Exception;

    /** Waits up to {@code maxWait} the library's own way; true when granted. */
    boolean lock(String key, Duration maxWait) throws Exception;

    /** Releases the lock this contender holds. */
    void unlock() throws Exception;

    /** Frees what the contender set up for itself (nothing by default). */
    @Override
    default void close() {}
  }
}
