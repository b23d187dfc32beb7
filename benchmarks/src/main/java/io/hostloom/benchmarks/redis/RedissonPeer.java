package io.hostloom.benchmarks.redis;

import io.hostloom.benchmarks.Machine;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/** Redisson {@code RLock}: one client for all threads (Redisson locks are owned per thread). */
final class RedissonPeer implements LockPeer {
  /** Redisson holds a pooled connection per command in flight: one per benchmark thread. */
  static final int POOL_SIZE = 64;

  private final RedissonClient redisson;
  private final long leaseMillis;

  RedissonPeer(ClientSettings settings) {
    Config config = new Config();
    config.setNettyThreads(settings.ioThreads());
    config.setThreads(settings.ioThreads());
    config
        .useSingleServer()
        .setAddress(settings.uri())
        .setTimeout((int) settings.commandTimeout().toMillis())
        .setConnectTimeout((int) settings.connectTimeout().toMillis())
        .setConnectionPoolSize(POOL_SIZE)
        .setConnectionMinimumIdleSize(POOL_SIZE);
    this.redisson = Redisson.create(config);
    this.leaseMillis = settings.lease().toMillis();
  }

  @Override
  public String name() {
    return "Redisson";
  }

  @Override
  public List<String> configuration() {
    return List.of(
        "Redisson "
            + Machine.version("org.redisson", "redisson")
            + " `useSingleServer()`, `timeout` 5000 ms, `connectTimeout` 5000 ms,"
            + " `nettyThreads` 2, `threads` 2, other settings default (retries, pub/sub pool)",
        "connection pool "
            + POOL_SIZE
            + " (min idle "
            + POOL_SIZE
            + "): Redisson holds one pooled connection per command in flight, so it gets one per"
            + " benchmark thread where the Lettuce peers pipeline over one connection",
        "uncontended/throughput: `getLock(key).tryLock(0, 30 s)` + `unlock()` (explicit lease:"
            + " no watchdog); hand-off: `tryLock(5 s, 30 s)`");
  }

  @Override
  public String waitingMode() {
    return "wake-up (pub/sub on the lock's channel)";
  }

  @Override
  public Contender contender(int index) {
    return new Contender() {
      private RLock held;

      @Override
      public boolean tryLock(String key) throws InterruptedException {
        RLock l = redisson.getLock(key);
        if (l.tryLock(0, leaseMillis, TimeUnit.MILLISECONDS)) {
          held = l;
          return true;
        }
        return false;
      }

      @Override
      public boolean lock(String key, Duration maxWait) throws InterruptedException {
        RLock l = redisson.getLock(key);
        if (l.tryLock(maxWait.toMillis(), leaseMillis, TimeUnit.MILLISECONDS)) {
          held = l;
          return true;
        }
        return false;
      }

      @Override
      public void unlock() {
        held.unlock();
        held = null;
      }
    };
  }

  @Override
  public void close() {
    redisson.shutdown();
  }
}
