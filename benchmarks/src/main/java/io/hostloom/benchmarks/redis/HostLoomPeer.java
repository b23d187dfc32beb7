package io.hostloom.benchmarks.redis;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.redis.RedisLockBackend;
import io.lettuce.core.RedisClient;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * HostLoom: {@code DistributedLock} over {@code RedisLockBackend}, one lock for all threads. The
 * lean variant (a diagnostic row until the report gives it its own targets) turns off what a caller
 * may not use: fencing tokens ({@code fencingTokens(false)}), release notifications and the
 * kernel's wake-on-release.
 */
final class HostLoomPeer implements LockPeer {
  private static final String NAMESPACE = "bench";

  private final ClientResources resources;
  private final RedisClient client;
  private final RedisLockBackend backend;
  private final DistributedLock lock;
  private final boolean lean;

  HostLoomPeer(ClientSettings settings) {
    this(settings, false);
  }

  HostLoomPeer(ClientSettings settings, boolean lean) {
    this.lean = lean;
    this.resources = settings.lettuceResources();
    this.client = settings.lettuceClient(resources);
    this.backend =
        RedisLockBackend.builder()
            .client(client)
            .uri(settings.uri())
            .commandTimeout(settings.commandTimeout())
            .fencingTokens(!lean)
            .releaseNotifications(!lean)
            .build();
    this.lock =
        DistributedLock.create(
            LockingOptions.builder()
                .namespace(NAMESPACE)
                .defaultLease(settings.lease())
                .wakeOnRelease(!lean)
                .build(),
            backend);
  }

  @Override
  public String name() {
    return lean ? "HostLoom lean" : "HostLoom";
  }

  @Override
  public boolean diagnostic() {
    return lean;
  }

  @Override
  public List<String> configuration() {
    if (lean) {
      return List.of(
          "as HostLoom, with the lean settings: `RedisLockBackend.builder()...fencingTokens(false)"
              + ".releaseNotifications(false)` and `LockingOptions.builder()...wakeOnRelease(false)`"
              + " (no fence counter, no waiter-flag check, no pub/sub connection; waiters poll)");
    }
    return List.of(
        "`DistributedLock.create(LockingOptions.builder().namespace(\"bench\").defaultLease(30 s)"
            + ".build(), RedisLockBackend.builder().client(c).uri(..).commandTimeout(5 s).build())`"
            + ", one lock instance shared by all threads (every acquisition has its own owner"
            + " token)",
        "Lettuce client with the common options (the ones the backend sets on a client it owns);"
            + " one multiplexed command connection plus one pub/sub connection for release"
            + " signals",
        "uncontended/throughput: `tryAcquire(key)` (one attempt) + `close()`; hand-off:"
            + " `acquire(key, maxWait 5 s)` with the default retry policy (linear 10 x 50 ms +"
            + " 50 ms jitter), wake-on-release "
            + (lock.options().orElseThrow().wakeOnRelease() ? "on" : "off"));
  }

  @Override
  public String waitingMode() {
    LockBackend spi = backend; // the module may or may not implement the signal yet
    return spi instanceof ReleaseSignal && lock.options().orElseThrow().wakeOnRelease()
        ? "wake-up (release signal over pub/sub), polling as fallback"
        : "polling (retry policy; the backend offers no release signal to the kernel)";
  }

  @Override
  public String describeKeys(String key) {
    return lean
        ? "hl:{" + NAMESPACE + ":lock:" + key + "} (string)"
        : "hl:{" + NAMESPACE + ":lock:" + key + "} (string) + hl:{...}:fence (counter)";
  }

  @Override
  public Contender contender(int index) {
    return new Contender() {
      private LockHandle held;

      @Override
      public boolean tryLock(String key) {
        Optional<LockHandle> h = lock.tryAcquire(key);
        held = h.orElse(null);
        return held != null;
      }

      @Override
      public boolean lock(String key, Duration maxWait) {
        try {
          held = lock.acquire(key, LockOptions.builder().maxWait(maxWait).build());
          return true;
        } catch (LockNotAcquiredException e) {
          return false;
        }
      }

      @Override
      public void unlock() {
        held.close();
        held = null;
      }
    };
  }

  @Override
  public void close() {
    lock.close();
    backend.close();
    client.shutdown();
    var unused = resources.shutdown(0, 2, TimeUnit.SECONDS);
  }
}
