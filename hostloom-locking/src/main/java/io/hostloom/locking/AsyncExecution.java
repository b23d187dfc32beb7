package io.hostloom.locking;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The glue of {@code executeWithLockAsync}: runs the action's stage on a handle, releases when the
 * stage ends, reports {@code executeFinished}, and completes the caller's future.
 */
final class AsyncExecution {
  private AsyncExecution() {}

  /** Enabled mode: waits for {@code acquired}, then runs the action on its handle. */
  static <T> CompletableFuture<T> afterAcquire(
      LockEvents events,
      String key,
      Object ctx,
      CompletableFuture<LeaseHandle> acquired,
      OnLost onLost,
      LockedAsyncFunction<T> action) {
    CompletableFuture<T> out = new CompletableFuture<>();
    var unused =
        out.whenComplete(
            (r, e) -> {
              if (out.isCancelled()) {
                acquired.cancel(false); // abandons a pending acquisition; no-op once granted
              }
            });
    var unused2 =
        acquired.whenComplete(
            (h, e) -> {
              if (e != null) {
                Throwable cause = LockRuntime.unwrap(e);
                events.executeFinished(ctx, key, -1, cause);
                out.completeExceptionally(cause);
              } else {
                run(events, h, onLost, action, ctx, out);
              }
            });
    return out;
  }

  /** Disabled mode: runs the action on the placeholder at once. */
  static <T> CompletableFuture<T> placeholder(
      LockEvents events, String key, Object ctx, LockedAsyncFunction<T> action) {
    CompletableFuture<T> out = new CompletableFuture<>();
    CompletionStage<T> stage = start(action, new DisabledHandle(key));
    stage.whenComplete(
        (r, e) -> {
          events.executeFinished(ctx, key, -1, LockRuntime.unwrap(e));
          complete(out, r, e);
        });
    return out;
  }

  private static <T> void run(
      LockEvents events,
      LeaseHandle h,
      OnLost onLost,
      LockedAsyncFunction<T> action,
      Object ctx,
      CompletableFuture<T> out) {
    CompletionStage<T> stage;
    try {
      h.checkStillHeld();
      stage = start(action, h);
    } catch (RuntimeException ex) {
      stage = CompletableFuture.failedFuture(ex);
    }
    if (onLost == OnLost.CANCEL) {
      CompletionStage<T> s = stage;
      h.onLoss(() -> s.toCompletableFuture().cancel(true));
    }
    stage.whenComplete(
        (r, ex) -> {
          var unused =
              h.closeAsync()
                  .whenComplete(
                      (v, ignored) -> {
                        events.executeFinished(ctx, h.key(), h.holdNanos(), LockRuntime.unwrap(ex));
                        complete(out, r, ex);
                      });
        });
  }

  private static <T> CompletionStage<T> start(LockedAsyncFunction<T> action, LockHandle h) {
    try {
      CompletionStage<T> s = action.apply(h);
      return s != null ? s : CompletableFuture.failedFuture(new NullPointerException("stage"));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private static <T> void complete(CompletableFuture<T> out, T value, Throwable e) {
    if (e != null) {
      out.completeExceptionally(LockRuntime.unwrap(e));
    } else {
      out.complete(value);
    }
  }
}
