package io.hostloom.locking.spi.support;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;

/**
 * Runs the asynchronous operations of one key one after another, in the order they arrived, and
 * those of different keys side by side. For a backend whose operations on a key are optimistic
 * (read, decide, write conditioned on what was read): callers of one instance then never make each
 * other's conditional writes fail, so under contention a key costs one read and at most one write
 * per operation instead of rounds of lost writes; only other processes can still race them. Nothing
 * waits on a thread: a turn starts when the previous one's future completes. A key with no
 * operation running holds no memory. Thread-safe.
 */
public final class KeyTurns {
  private final ConcurrentMap<String, CompletableFuture<Void>> last = new ConcurrentHashMap<>();

  /**
   * Starts {@code operation} once every operation of {@code key} that arrived before it has
   * completed (normally or not), and completes with what it completes with. The supplier is called
   * once; if it throws, the returned future fails with that exception and the key's next operation
   * starts.
   */
  public <T> CompletableFuture<T> run(String key, Supplier<CompletableFuture<T>> operation) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(operation, "operation");
    CompletableFuture<Void> mine = new CompletableFuture<>();
    CompletableFuture<Void> before = last.put(key, mine);
    CompletableFuture<T> result =
        (before == null ? CompletableFuture.<Void>completedFuture(null) : before)
            .thenCompose(v -> operation.get());
    var unused =
        result.whenComplete(
            (v, t) -> {
              last.remove(key, mine);
              mine.complete(null);
            });
    return result;
  }

  /** The number of keys with an operation running or waiting (0 once all completed). */
  public int busyKeys() {
    return last.size();
  }
}
