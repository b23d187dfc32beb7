package io.hostloom.shedlock;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackend;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.javacrumbs.shedlock.support.LockException;

/**
 * The provider's only contact with the backend SPI's result types: each call waits for the answer
 * (bounded by {@code callTimeout} on top of the backend's own command timeout) and reduces it to
 * "granted / refused" or a {@link LockException}. Kept in one place so an SPI change of the
 * extend/release results touches this class only.
 */
final class BackendCalls {
  private final LockBackend backend;
  private final Duration callTimeout;

  BackendCalls(LockBackend backend, Duration callTimeout) {
    this.backend = backend;
    this.callTimeout = callTimeout;
  }

  /**
   * The fencing token of a new grant of {@code key} to {@code owner}, or {@code 0} when another
   * owner holds it. A grant whose answer is not awaited (timeout, interruption) is released.
   */
  long acquire(String key, String owner, Duration lease) {
    CompletableFuture<AcquireOutcome> f = backend.acquire(key, owner, "", lease);
    try {
      AcquireOutcome o = await(f, "acquire", key);
      return o.granted() ? o.fencingToken() : 0;
    } catch (LockException e) {
      // nobody will use a grant that arrives after we gave up: release it, owner-checked
      f.thenAccept(
          late -> {
            if (late.granted()) {
              backend.release(key, owner);
            }
          });
      throw e;
    }
  }

  /**
   * {@code true} when {@code owner}'s live lease on {@code key} now ends {@code lease} from now.
   */
  boolean extend(String key, String owner, Duration lease) {
    return await(backend.extend(key, owner, lease), "extend", key).extended();
  }

  /** {@code true} when this call removed {@code owner}'s live lease on {@code key}. */
  boolean release(String key, String owner) {
    return await(backend.release(key, owner), "release", key).released();
  }

  private <T> T await(CompletableFuture<T> f, String op, String key) {
    try {
      return f.get(callTimeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LockException(op + " of '" + key + "' interrupted", e);
    } catch (TimeoutException e) {
      throw new LockException(op + " of '" + key + "' got no answer within " + callTimeout, e);
    } catch (ExecutionException e) {
      throw new LockException(
          op + " of '" + key + "' failed on backend " + backend.name() + ": " + e.getCause(),
          e.getCause());
    }
  }
}
