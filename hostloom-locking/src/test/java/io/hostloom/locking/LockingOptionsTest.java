package io.hostloom.locking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Contract A (1–7) and the options' builders. */
class LockingOptionsTest {
  private final KernelFixture fx = new KernelFixture();

  @Test
  void validOptions() {
    assertThat(LockingOptions.of("billing-1").validate()).isEmpty();
    assertThat(LockingOptions.of("Bad Space").validate()).hasSize(1);
    assertThat(LockingOptions.of("BAD").validate()).hasSize(1);
  }

  @Test
  void validateListsEveryProblemNamingItsKey() {
    LockingOptions bad =
        LockingOptions.builder()
            .namespace("")
            .defaultLease(Duration.ZERO)
            .maxLease(Duration.ofSeconds(-1))
            .maxHold(Duration.ZERO)
            .retry(null)
            .maxKeyLength(0)
            .build();
    List<String> problems = bad.validate();
    assertThat(problems).hasSize(6);
    assertThat(String.join("\n", problems))
        .contains(LockingOptions.KEY_NAMESPACE)
        .contains(LockingOptions.KEY_DEFAULT_LEASE)
        .contains(LockingOptions.KEY_MAX_LEASE)
        .contains(LockingOptions.KEY_MAX_HOLD)
        .contains(LockingOptions.KEY_RETRY)
        .contains(LockingOptions.KEY_MAX_KEY_LENGTH)
        .contains("but was");
    assertThat(
            LockingOptions.of("x").toBuilder().maxLease(Duration.ofSeconds(1)).build().validate())
        .singleElement()
        .asString()
        .contains(LockingOptions.KEY_MAX_LEASE);
  }

  @Test
  void constructionFailsWithEveryProblem() {
    LockingOptions bad =
        LockingOptions.builder().namespace("Bad").maxKeyLength(-1).maxHold(Duration.ZERO).build();
    assertThatThrownBy(() -> DistributedLock.create(bad, fx.memory))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(LockingOptions.KEY_NAMESPACE)
        .hasMessageContaining(LockingOptions.KEY_MAX_KEY_LENGTH)
        .hasMessageContaining(LockingOptions.KEY_MAX_HOLD);
  }

  @Test
  void theWopiNamespaceIsReservedForTheWopiFacesKeys() {
    assertThat(LockingOptions.of("wopi").validate())
        .singleElement()
        .asString()
        .contains(LockingOptions.KEY_NAMESPACE)
        .contains("must not be 'wopi'");
    assertThat(LockingOptions.of("wopi-docs").validate()).isEmpty();
  }

  @Test
  void enabledNeedsABackendDisabledDoesNot() {
    assertThatThrownBy(() -> DistributedLock.create(LockingOptions.of("x"), null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("backend");
    DistributedLock disabled =
        DistributedLock.create(
            LockingOptions.builder().namespace("x").enabled(false).build(), null);
    assertThat(disabled.isCoordinated()).isFalse();
  }

  @Test
  void startupLogEvents() {
    fx.lock(b -> b.enabled(false));
    assertThat(fx.log.containing("3100")).singleElement().asString().startsWith("WARN");
    fx.lock();
    assertThat(fx.log.containing("3101"))
        .singleElement()
        .asString()
        .startsWith("INFO")
        .contains("'test'")
        .contains("immediate, 3 retries")
        .contains("0 ms");
  }

  @Test
  void lockOpenedAndClosedEventsFeedTheEnabledGauge() {
    DistributedLock on = fx.lock();
    DistributedLock off = fx.lock(b -> b.enabled(false));
    on.close();
    on.close();
    off.close();
    assertThat(fx.events.events())
        .containsExactly("opened:test:true", "opened:test:false", "closed:test", "closed:test");
  }

  @Test
  void defaultsAndRoundTripCopy() {
    LockingOptions d = LockingOptions.of("n");
    assertThat(d.enabled()).isTrue();
    assertThat(d.defaultLease()).isEqualTo(Duration.ofSeconds(30));
    assertThat(d.maxLease()).isEqualTo(Duration.ofMinutes(5));
    assertThat(d.maxHold()).isEqualTo(Duration.ofMinutes(10));
    assertThat(d.retry()).isEqualTo(LockRetryPolicy.defaultPolicy());
    assertThat(d.maxKeyLength()).isEqualTo(512);
    assertThat(d.detectReentrancy()).isTrue();
    assertThat(d.autoExtend()).isFalse();
    assertThat(d.strictMaxHold()).isFalse();
    assertThat(d.wakeOnRelease()).isTrue();

    LockingOptions all =
        LockingOptions.builder()
            .namespace("all")
            .enabled(false)
            .defaultLease(Duration.ofSeconds(3))
            .maxLease(Duration.ofSeconds(4))
            .maxHold(Duration.ofSeconds(5))
            .strictMaxHold(true)
            .retry(LockRetryPolicy.immediate(1))
            .autoExtend(true)
            .detectReentrancy(false)
            .maxKeyLength(7)
            .wakeOnRelease(false)
            .build();
    assertThat(all.toBuilder().build()).isEqualTo(all).hasSameHashCodeAs(all);
    assertThat(all.toBuilder().build().toString()).isEqualTo(all.toString());
    assertThat(all.toString()).contains("wakeOnRelease=false");
    assertThat(all).isNotEqualTo(all.toBuilder().wakeOnRelease(true).build());
  }

  @Test
  void lockOptionsBuilderRejectsBadValuesAndCopies() {
    assertThatThrownBy(() -> LockOptions.builder().lease(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("but was PT0S");
    assertThatThrownBy(() -> LockOptions.builder().lease(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LockOptions.builder().maxWait(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    LockOptions all =
        LockOptions.builder()
            .lease(Duration.ofSeconds(1))
            .maxWait(Duration.ofSeconds(2))
            .retry(LockRetryPolicy.immediate(2))
            .autoExtend(true)
            .onLost(OnLost.CANCEL)
            .build();
    assertThat(all.toBuilder().build()).isEqualTo(all).hasSameHashCodeAs(all);
    assertThat(LockOptions.DEFAULTS.onLost()).isEqualTo(OnLost.OBSERVE);
    assertThat(LockOptions.SKIP_IF_BUSY.maxWait()).contains(Duration.ZERO);
  }

  @Test
  void everyBuilderRejectsInvalidOptionsWithTheSameMessage() {
    LockingOptions bad = LockingOptions.of("BAD");
    LockingOptions good = LockingOptions.of("ok");
    assertThat(good.requireValid()).isSameAs(good);
    String message = "invalid locking options: " + String.join("; ", bad.validate());
    io.hostloom.locking.memory.InMemoryLockBackend memory =
        new io.hostloom.locking.memory.InMemoryLockBackend();
    assertThatThrownBy(bad::requireValid).hasMessage(message);
    assertThatThrownBy(() -> DistributedLock.create(bad, memory)).hasMessage(message);
    assertThatThrownBy(
            () -> io.hostloom.locking.semaphore.DistributedSemaphores.create(bad, memory))
        .hasMessage(message);
    assertThatThrownBy(
            () -> io.hostloom.locking.rwlock.DistributedReadWriteLock.builder(bad, memory).build())
        .hasMessage(message);
  }
}
