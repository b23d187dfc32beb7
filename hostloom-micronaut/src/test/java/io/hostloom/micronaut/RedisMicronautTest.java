package io.hostloom.micronaut;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.redis.RedisLockBackend;
import io.hostloom.redis.RedisServerProcess;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The module over a real redis-server (the Redis module's test launcher). */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisMicronautTest extends BackendContextContract implements TestPropertyProvider {
  static final String NAMESPACE = "mn-redis";
  static final String KEY_PREFIX = "mn-test:";

  @Override
  Class<RedisLockBackend> backendType() {
    return RedisLockBackend.class;
  }

  @Override
  public Map<String, String> getProperties() {
    // each value differs from its default, so each assertion shows the setting arrived
    return Map.ofEntries(
        Map.entry("hostloom.backend", "redis"),
        Map.entry("hostloom.redis.uri", RedisServerProcess.shared().uri()),
        Map.entry("hostloom.redis.key-prefix", KEY_PREFIX),
        Map.entry("hostloom.redis.command-timeout", "3s"),
        Map.entry("hostloom.locking.namespace", NAMESPACE),
        Map.entry("hostloom.locking.default-lease", "7s"),
        Map.entry("hostloom.locking.max-lease", "70s"),
        Map.entry("hostloom.locking.max-hold", "700s"),
        Map.entry("hostloom.locking.strict-max-hold", "true"),
        Map.entry("hostloom.locking.wake-on-release", "false"),
        Map.entry("hostloom.locking.retry", "interval:30x100ms"),
        Map.entry("hostloom.locking.max-key-length", "300"));
  }

  @Test
  void theLockBeanIsOverRedisAndExcludesAnotherInstance() {
    assertThat(lock.isCoordinated()).isTrue();
    // a second application instance: its own backend and lock on the same server and namespace
    try (RedisLockBackend otherBackend =
            RedisLockBackend.builder()
                .uri(RedisServerProcess.shared().uri())
                .keyPrefix(KEY_PREFIX)
                .build();
        DistributedLock other =
            DistributedLock.create(lock.options().orElseThrow(), otherBackend)) {
      try (LockHandle h = lock.acquire("bean")) {
        assertThat(h.isHeld()).isTrue();
        assertThat(other.tryAcquire("bean")).isEmpty();
      }
      Optional<LockHandle> afterRelease = other.tryAcquire("bean");
      assertThat(afterRelease).isPresent();
      afterRelease.get().close();
    }
  }

  @Test
  void everyLockingSettingReachesTheLocksOptions() {
    LockingOptions o = lock.options().orElseThrow();
    assertThat(o.namespace()).isEqualTo(NAMESPACE);
    assertThat(o.defaultLease()).isEqualTo(Duration.ofSeconds(7));
    assertThat(o.maxLease()).isEqualTo(Duration.ofSeconds(70));
    assertThat(o.maxHold()).isEqualTo(Duration.ofSeconds(700));
    assertThat(o.strictMaxHold()).isTrue();
    assertThat(o.wakeOnRelease()).isFalse();
    assertThat(o.retry()).isEqualTo(LockRetryPolicy.interval(30, Duration.ofMillis(100)));
    assertThat(o.maxKeyLength()).isEqualTo(300);
    assertThat(o.autoExtend()).isEqualTo(LockingOptions.DEFAULT_AUTO_EXTEND);
    assertThat(o.detectReentrancy()).isEqualTo(LockingOptions.DEFAULT_DETECT_REENTRANCY);
  }

  @Test
  void theAdvicesLeaseAndTheDefaultLeaseReachTheBackend() {
    // the record's remaining lease, read while the advised method holds the key
    Duration leased = guarded.leased(() -> remaining("leased"));
    assertThat(leased).isGreaterThan(Duration.ofSeconds(10)).isLessThanOrEqualTo(seconds(20));
    Duration byDefault = guarded.defaultLeased(() -> remaining("default-leased"));
    assertThat(byDefault).isGreaterThan(Duration.ZERO).isLessThanOrEqualTo(seconds(7));
    assertThat(remainingOrNone("leased")).as("released after the method").isEmpty();
  }

  private static Duration seconds(long s) {
    return Duration.ofSeconds(s);
  }

  private Duration remaining(String key) {
    return remainingOrNone(key).orElseThrow(() -> new AssertionError(key + " is not held"));
  }

  private Optional<Duration> remainingOrNone(String key) {
    return backend.read(NAMESPACE + ":lock:" + key).join().map(LeaseRecord::remaining);
  }
}
