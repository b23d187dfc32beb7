package io.hostloom.benchmarks.redis;

import io.hostloom.benchmarks.Machine;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;

/**
 * ShedLock's Redis provider. ShedLock 7 publishes no Lettuce-only Redis provider on Maven Central
 * ({@code shedlock-provider-redis-lettuce} does not resolve), so this is {@code
 * shedlock-provider-redis-spring} over a Lettuce connection factory. ShedLock never waits: for the
 * hand-off the harness polls it.
 */
final class ShedLockPeer implements LockPeer {
  private final ClientSettings settings;
  private final SpringRedis redis;
  private final RedisLockProvider provider;

  ShedLockPeer(ClientSettings settings) {
    this.settings = settings;
    this.redis = new SpringRedis(settings);
    this.provider = new RedisLockProvider(redis.factory(), "bench");
  }

  @Override
  public String name() {
    return "ShedLock";
  }

  @Override
  public List<String> configuration() {
    return List.of(
        "shedlock-provider-redis-spring "
            + Machine.version("net.javacrumbs.shedlock", "shedlock-provider-redis-spring")
            + " `RedisLockProvider(factory, \"bench\")` (`shedlock-provider-redis-lettuce` is not"
            + " served for ShedLock 7)",
        SpringRedis.describe(),
        "`lock(new LockConfiguration(now, key, lockAtMostFor 30 s, lockAtLeastFor 0))` +"
            + " `SimpleLock.unlock()`; hand-off: the harness retries `lock` every "
            + settings.pollInterval().toMillis()
            + " ms (ShedLock has no waiting)");
  }

  @Override
  public String waitingMode() {
    return "polling every " + settings.pollInterval().toMillis() + " ms (harness; no waiting)";
  }

  @Override
  public Contender contender(int index) {
    return new Contender() {
      private SimpleLock held;

      @Override
      public boolean tryLock(String key) {
        Optional<SimpleLock> l =
            provider.lock(
                new LockConfiguration(Instant.now(), key, settings.lease(), Duration.ZERO));
        held = l.orElse(null);
        return held != null;
      }

      @Override
      public boolean lock(String key, Duration maxWait) {
        long deadline = System.nanoTime() + maxWait.toNanos();
        while (!tryLock(key)) {
          if (System.nanoTime() - deadline >= 0) {
            return false;
          }
          LockSupport.parkNanos(settings.pollInterval().toNanos());
        }
        return true;
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
    redis.close();
  }
}
