package io.hostloom.benchmarks.redis;

import io.hostloom.benchmarks.Machine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;

/**
 * Spring Integration's {@code RedisLockRegistry} over Spring Data Redis' Lettuce connection
 * factory. Each contender has its own registry, standing for its own application instance: a
 * registry also holds a local {@code ReentrantLock} per key, so threads sharing one registry would
 * hand a key over in memory without Redis.
 */
final class SpringIntegrationPeer implements LockPeer {
  private final ClientSettings settings;
  private final RedisLockType type;
  private final SpringRedis redis;
  private final List<RedisLockRegistry> registries = new ArrayList<>();

  SpringIntegrationPeer(ClientSettings settings, RedisLockType type) {
    this.settings = settings;
    this.type = type;
    this.redis = new SpringRedis(settings);
  }

  @Override
  public String name() {
    return type == RedisLockType.SPIN_LOCK ? "Spring Integration" : "Spring Integration (pub/sub)";
  }

  @Override
  public List<String> configuration() {
    return List.of(
        "spring-integration-redis "
            + Machine.version(RedisLockRegistry.class)
            + " `RedisLockRegistry(factory, \"sint-bench\", 30000)`,"
            + " `RedisLockType."
            + type
            + "`"
            + (type == RedisLockType.SPIN_LOCK
                ? " (the default), `idleBetweenTries` 100 ms (default)"
                : ", the mode that waits for an unlock message"),
        SpringRedis.describe(),
        "one registry per benchmark thread (a registry resolves contention between its own"
            + " threads in memory first); `obtain(key).tryLock()` + `unlock()`; hand-off:"
            + " `tryLock(5 s)`");
  }

  boolean isPubSub() {
    return type == RedisLockType.PUB_SUB_LOCK;
  }

  @Override
  public String waitingMode() {
    return type == RedisLockType.SPIN_LOCK
        ? "polling every 100 ms (its `idleBetweenTries`)"
        : "wake-up (pub/sub unlock message)";
  }

  @Override
  public Contender contender(int index) {
    RedisLockRegistry registry = registry(index);
    return new Contender() {
      private Lock held;

      @Override
      public boolean tryLock(String key) {
        Lock l = registry.obtain(key);
        if (l.tryLock()) {
          held = l;
          return true;
        }
        return false;
      }

      @Override
      public boolean lock(String key, Duration maxWait) throws InterruptedException {
        Lock l = registry.obtain(key);
        if (l.tryLock(maxWait.toMillis(), TimeUnit.MILLISECONDS)) {
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

  /**
   * Contender {@code index}'s registry, created once and kept for the run: an application keeps its
   * registry, and a pub/sub registry's listener container is started on first contention.
   */
  private synchronized RedisLockRegistry registry(int index) {
    while (registries.size() <= index) {
      RedisLockRegistry r =
          new RedisLockRegistry(redis.factory(), "sint-bench", settings.lease().toMillis());
      r.setRedisLockType(type);
      registries.add(r);
    }
    return registries.get(index);
  }

  @Override
  public synchronized void close() {
    for (RedisLockRegistry r : registries) {
      r.destroy();
    }
    redis.close();
  }
}
