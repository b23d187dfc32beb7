package io.hostloom.benchmarks.redis;

import io.hostloom.redis.RedisLockBackend;
import io.lettuce.core.RedisClient;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Diagnostic: HostLoom's {@code RedisLockBackend} called through the SPI directly, without the
 * kernel. Between this and the floor lies the cost of the scripts; between this and HostLoom, the
 * kernel's. Not a peer: it is left out of the comparisons.
 */
final class HostLoomBackendPeer implements LockPeer {
  private final ClientResources resources;
  private final RedisClient client;
  private final RedisLockBackend backend;
  private final Duration lease;
  private final AtomicLong owners = new AtomicLong();

  HostLoomBackendPeer(ClientSettings settings) {
    this.resources = settings.lettuceResources();
    this.client = settings.lettuceClient(resources);
    this.backend =
        RedisLockBackend.builder()
            .client(client)
            .uri(settings.uri())
            .commandTimeout(settings.commandTimeout())
            .build();
    this.lease = settings.lease();
  }

  @Override
  public String name() {
    return "HostLoom backend only";
  }

  @Override
  public boolean diagnostic() {
    return true;
  }

  @Override
  public List<String> configuration() {
    return List.of(
        "diagnostic, not a peer: the same `RedisLockBackend` as HostLoom's, called through the SPI"
            + " (`acquire(key, owner, \"\", 30 s).join()`, `release(key, owner).join()`) without the"
            + " kernel");
  }

  @Override
  public String describeKeys(String key) {
    return "hl:{" + key + "} (string) + hl:{...}:fence (counter)";
  }

  @Override
  public String waitingMode() {
    return "n/a";
  }

  @Override
  public Contender contender(int index) {
    return new Contender() {
      private String heldKey;
      private String owner;

      @Override
      public boolean tryLock(String key) {
        String o = "bench-owner-" + index + "-" + owners.incrementAndGet();
        if (backend.acquire(key, o, "", lease).join().granted()) {
          heldKey = key;
          owner = o;
          return true;
        }
        return false;
      }

      @Override
      public boolean lock(String key, Duration maxWait) {
        throw new UnsupportedOperationException("no waiting: not in the hand-off");
      }

      @Override
      public void unlock() {
        boolean released = backend.release(heldKey, owner).join().released();
        heldKey = null;
        owner = null;
        if (!released) {
          throw new IllegalStateException("release refused");
        }
      }
    };
  }

  @Override
  public void close() {
    backend.close();
    client.shutdown();
    var unused = resources.shutdown(0, 2, TimeUnit.SECONDS);
  }
}
