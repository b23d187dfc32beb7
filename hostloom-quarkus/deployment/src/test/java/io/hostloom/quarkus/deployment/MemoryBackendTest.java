package io.hostloom.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.leadership.Leadership;
import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.quarkus.HostLoomLeaders;
import io.hostloom.quarkus.WithLock;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * hostloom.backend=memory: the settings reach the lock's options, the lock bean excludes, @WithLock
 * runs a method under the lock and throws LockNotAcquiredException when the key is held, and a
 * configured role gets a leader.
 */
class MemoryBackendTest {
  @RegisterExtension
  static final QuarkusUnitTest APP =
      new QuarkusUnitTest()
          .withApplicationRoot(jar -> jar.addClasses(Guarded.class))
          .overrideConfigKey("hostloom.backend", "memory")
          .overrideConfigKey("hostloom.locking.namespace", "quarkus-memory")
          .overrideConfigKey("hostloom.locking.default-lease", "7s")
          .overrideConfigKey("hostloom.locking.max-lease", "70s")
          .overrideConfigKey("hostloom.locking.max-hold", "700s")
          .overrideConfigKey("hostloom.locking.retry", "interval:3x20ms")
          .overrideConfigKey("hostloom.locking.detect-reentrancy", "false")
          .overrideConfigKey("hostloom.locking.max-key-length", "77")
          .overrideConfigKey("hostloom.leadership.roles.billing.lease", "3s")
          .overrideConfigKey("hostloom.leadership.roles.billing.renew-interval", "1s");

  @ApplicationScoped
  static class Guarded {
    @WithLock(value = "guarded", maxWait = "0s")
    String work() {
      return "done";
    }
  }

  @Inject DistributedLock lock;
  @Inject Guarded guarded;
  @Inject HostLoomLeaders leaders;

  @Test
  void theSettingsReachTheLocksOptions() {
    LockingOptions o = lock.options().orElseThrow();
    assertThat(o.namespace()).isEqualTo("quarkus-memory");
    assertThat(o.defaultLease()).isEqualTo(Duration.ofSeconds(7));
    assertThat(o.maxLease()).isEqualTo(Duration.ofSeconds(70));
    assertThat(o.maxHold()).isEqualTo(Duration.ofSeconds(700));
    assertThat(o.retry()).isEqualTo(LockRetryPolicy.interval(3, Duration.ofMillis(20)));
    assertThat(o.detectReentrancy()).isFalse();
    assertThat(o.maxKeyLength()).isEqualTo(77);
    // unset: the kernel's defaults
    assertThat(o.autoExtend()).isEqualTo(LockingOptions.DEFAULT_AUTO_EXTEND);
    assertThat(o.wakeOnRelease()).isEqualTo(LockingOptions.DEFAULT_WAKE_ON_RELEASE);
    assertThat(lock.isCoordinated()).isTrue();
    assertThat(lock.describe().toString()).contains("memory");
  }

  @Test
  void theLockBeanExcludes() {
    try (LockHandle first = lock.acquire("bean-key")) {
      assertThat(first.isHeld()).isTrue();
      assertThat(lock.tryAcquire("bean-key")).isEmpty();
    }
    Optional<LockHandle> again = lock.tryAcquire("bean-key");
    assertThat(again).isPresent();
    again.get().close();
  }

  @Test
  void withLockRunsTheMethodAndThrowsWhenTheKeyIsHeld() {
    assertThat(guarded.work()).isEqualTo("done");
    try (LockHandle held = lock.acquire("guarded")) {
      assertThatThrownBy(guarded::work)
          .isInstanceOf(LockNotAcquiredException.class)
          .hasMessageContaining("guarded");
    }
    assertThat(guarded.work()).isEqualTo("done");
  }

  @Test
  void aConfiguredRoleElectsALeader() throws Exception {
    Leadership term = leaders.get("billing").awaitLeadershipAsync().get(10, TimeUnit.SECONDS);
    assertThat(term.term()).isPositive();
    assertThat(leaders.all()).containsOnlyKeys("billing");
  }
}
