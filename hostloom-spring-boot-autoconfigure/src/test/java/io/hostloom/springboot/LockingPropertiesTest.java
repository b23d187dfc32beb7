package io.hostloom.springboot;

import static io.hostloom.springboot.HostLoomAutoConfigurationTest.ALL;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Every {@link LockingOptions} setting is bindable: each {@code KEY_*} of the kernel is set through
 * a property to a value other than its default and read back from the built lock. A new kernel
 * option without a property fails the first assertion.
 */
class LockingPropertiesTest {
  static final Map<String, String> EVERY_OPTION = new LinkedHashMap<>();

  static {
    EVERY_OPTION.put(LockingOptions.KEY_NAMESPACE, "every-option");
    EVERY_OPTION.put(LockingOptions.KEY_ENABLED, "true"); // false is tested below
    EVERY_OPTION.put(LockingOptions.KEY_DEFAULT_LEASE, "11s");
    EVERY_OPTION.put(LockingOptions.KEY_MAX_LEASE, "111s");
    EVERY_OPTION.put(LockingOptions.KEY_MAX_HOLD, "1111s");
    EVERY_OPTION.put(LockingOptions.KEY_STRICT_MAX_HOLD, "true");
    EVERY_OPTION.put(LockingOptions.KEY_RETRY, "interval:3x30ms");
    EVERY_OPTION.put(LockingOptions.KEY_AUTO_EXTEND, "true");
    EVERY_OPTION.put(LockingOptions.KEY_DETECT_REENTRANCY, "false");
    EVERY_OPTION.put(LockingOptions.KEY_MAX_KEY_LENGTH, "99");
    EVERY_OPTION.put(LockingOptions.KEY_WAKE_ON_RELEASE, "false");
  }

  @Test
  void theTestSetsEveryKeyTheKernelHas() throws IllegalAccessException {
    List<String> keys =
        Arrays.stream(LockingOptions.class.getFields())
            .filter(f -> Modifier.isStatic(f.getModifiers()) && f.getName().startsWith("KEY_"))
            .map(LockingPropertiesTest::value)
            .toList();
    assertThat(EVERY_OPTION.keySet()).containsExactlyInAnyOrderElementsOf(keys);
  }

  @Test
  void everyKernelOptionSetThroughPropertiesReachesTheLockAndItsDescription() {
    new ApplicationContextRunner()
        .withConfiguration(ALL)
        .withPropertyValues("hostloom.backend=memory")
        .withPropertyValues(
            EVERY_OPTION.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .toList()
                .toArray(String[]::new))
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              LockingOptions o = (ctx.getBean(DistributedLock.class)).options().orElseThrow();
              assertThat(o.namespace()).isEqualTo("every-option");
              assertThat(o.enabled()).isTrue();
              assertThat(o.defaultLease()).isEqualTo(Duration.ofSeconds(11));
              assertThat(o.maxLease()).isEqualTo(Duration.ofSeconds(111));
              assertThat(o.maxHold()).isEqualTo(Duration.ofSeconds(1111));
              assertThat(o.strictMaxHold()).isTrue();
              assertThat(o.retry()).isEqualTo(LockRetryPolicy.interval(3, Duration.ofMillis(30)));
              assertThat(o.autoExtend()).isTrue();
              assertThat(o.detectReentrancy()).isFalse();
              assertThat(o.maxKeyLength()).isEqualTo(99);
              assertThat(o.wakeOnRelease()).isFalse();
              assertThat((ctx.getBean(DistributedLock.class)).describe().lines())
                  .anyMatch(l -> l.startsWith(LockingOptions.KEY_WAKE_ON_RELEASE + " = false"))
                  .anyMatch(l -> l.contains(LockingOptions.KEY_MAX_HOLD + " = PT18M31S (strict)"));
            });
  }

  @Test
  void enabledFalseReachesTheLock() {
    new ApplicationContextRunner()
        .withConfiguration(ALL)
        .withPropertyValues("hostloom.locking.namespace=off", "hostloom.locking.enabled=false")
        .run(
            ctx ->
                assertThat((ctx.getBean(DistributedLock.class)).options().orElseThrow().enabled())
                    .isFalse());
  }

  private static String value(Field f) {
    try {
      return (String) f.get(null);
    } catch (IllegalAccessException e) {
      throw new AssertionError(e);
    }
  }
}
