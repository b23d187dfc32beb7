package io.hostloom.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockBackendUnavailableException;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.testing.CountingLockBackend.Operation;
import io.hostloom.locking.testing.FaultInjectingLockBackend;
import io.hostloom.locking.testing.ManualLockClock;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

class LockMetricsListenerTest {
  private final ManualLockClock clock = new ManualLockClock();
  private final FaultInjectingLockBackend backend =
      new FaultInjectingLockBackend(new InMemoryLockBackend(clock));
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final TestObservationRegistry observations = TestObservationRegistry.create();
  private final LockMetricsListener metrics = new LockMetricsListener(meters, observations);

  private DistributedLock lock(String namespace, boolean enabled) {
    return DistributedLock.builder(
            LockingOptions.builder().namespace(namespace).enabled(enabled).build(), backend)
        .clock(clock)
        .listener(metrics)
        .logger(NOPLogger.NOP_LOGGER)
        .build();
  }

  private static LockOptions lease(Duration d) {
    return LockOptions.builder().lease(d).maxWait(Duration.ZERO).build();
  }

  private double activeNow(String ns) {
    return meters
        .get(LockMetricsListener.ACTIVE)
        .tag(LockMetricsListener.NAMESPACE_TAG, ns)
        .gauge()
        .value();
  }

  @Test
  void acquireDurationByOutcomeAndActiveAndHold() {
    DistributedLock a = lock("billing", true);
    DistributedLock b = lock("billing", true);
    LockHandle h = a.tryAcquire("invoice:1").orElseThrow();
    assertThat(activeNow("billing")).isEqualTo(1);
    assertThat(b.tryAcquire("invoice:1")).isEmpty();
    backend.failNext(1, LockFailureKind.UNAVAILABLE, Operation.ACQUIRE);
    assertThatThrownBy(() -> b.tryAcquire("other"))
        .isInstanceOf(LockBackendUnavailableException.class);
    clock.advance(Duration.ofMillis(250));
    h.close();

    for (String outcome : new String[] {"acquired", "not_acquired", "unavailable"}) {
      assertThat(
              meters
                  .get(LockMetricsListener.ACQUIRE_DURATION)
                  .tags(
                      LockMetricsListener.NAMESPACE_TAG,
                      "billing",
                      LockMetricsListener.OUTCOME_TAG,
                      outcome)
                  .timer()
                  .count())
          .as(outcome)
          .isEqualTo(1);
    }
    assertThat(
            meters.get(LockMetricsListener.HOLD_DURATION).timer().totalTime(TimeUnit.MILLISECONDS))
        .isEqualTo(250);
    assertThat(activeNow("billing")).isZero();
  }

  @Test
  void lostWithReasonAndActiveEndsOnce() {
    DistributedLock a = lock("billing", true);
    LockHandle h = a.tryAcquire("k", lease(Duration.ofSeconds(1))).orElseThrow();
    clock.advance(Duration.ofSeconds(1));
    h.close();
    assertThat(
            meters
                .get(LockMetricsListener.LOST)
                .tags(
                    LockMetricsListener.REASON_TAG,
                    "expired",
                    LockMetricsListener.NAMESPACE_TAG,
                    "billing")
                .counter()
                .count())
        .isEqualTo(1);
    assertThat(activeNow("billing")).isZero();
    assertThat(meters.get(LockMetricsListener.HOLD_DURATION).timer().count()).isEqualTo(1);
  }

  @Test
  void orphanReleasesAndExtensions() {
    DistributedLock a = lock("billing", true);
    backend.holdReplies();
    CompletableFuture<Optional<LockHandle>> f = a.tryAcquireAsync("k");
    f.cancel(false);
    backend.deliverReplies();
    assertThat(
            meters
                .get(LockMetricsListener.ORPHAN_RELEASES)
                .tags(LockMetricsListener.OUTCOME_TAG, "released")
                .counter()
                .count())
        .isEqualTo(1);
    // an abandoned acquisition records no acquire.duration sample
    assertThat(meters.find(LockMetricsListener.ACQUIRE_DURATION).timers()).isEmpty();

    LockHandle h = a.tryAcquire("j").orElseThrow();
    assertThat(h.extend(Duration.ofSeconds(5))).isTrue();
    backend.failNext(1, LockFailureKind.TIMEOUT, Operation.EXTEND);
    assertThat(h.extend(Duration.ofSeconds(5))).isFalse();
    assertThat(
            meters
                .get(LockMetricsListener.EXTEND)
                .tags(
                    LockMetricsListener.OUTCOME_TAG,
                    "extended",
                    LockMetricsListener.EXTEND_KIND_TAG,
                    "manual")
                .counter()
                .count())
        .isEqualTo(1);
    assertThat(
            meters
                .get(LockMetricsListener.EXTEND)
                .tags(LockMetricsListener.OUTCOME_TAG, "failed")
                .counter()
                .count())
        .isEqualTo(1);
    h.close();
  }

  @Test
  void enabledGaugePerNamespaceRemovedWhenTheLastLockCloses() {
    DistributedLock on = lock("billing", true);
    DistributedLock off = lock("reports", false);
    assertThat(
            meters
                .get(LockMetricsListener.ENABLED)
                .tag(LockMetricsListener.NAMESPACE_TAG, "billing")
                .gauge()
                .value())
        .isEqualTo(1);
    assertThat(
            meters
                .get(LockMetricsListener.ENABLED)
                .tag(LockMetricsListener.NAMESPACE_TAG, "reports")
                .gauge()
                .value())
        .isZero();
    on.close();
    assertThat(
            meters
                .find(LockMetricsListener.ENABLED)
                .tag(LockMetricsListener.NAMESPACE_TAG, "billing")
                .gauge())
        .isNull();
    off.close();
    assertThat(meters.find(LockMetricsListener.ENABLED).gauges()).isEmpty();
  }

  @Test
  void everyMeterCarriesTheNamespaceAndNoKeyOrOwner() {
    DistributedLock a = lock("billing", true);
    LockHandle h = a.tryAcquire("secret-key", lease(Duration.ofSeconds(1))).orElseThrow();
    var unused = h.extend(Duration.ofSeconds(1));
    clock.advance(Duration.ofSeconds(1));
    h.close();
    a.runWithLock("other", x -> {});
    for (Meter m : meters.getMeters()) {
      assertThat(m.getId().getTag(LockMetricsListener.NAMESPACE_TAG))
          .as(m.getId().toString())
          .isEqualTo("billing");
      for (Tag t : m.getId().getTags()) {
        assertThat(t.getValue()).doesNotContain("secret-key").doesNotMatch("[0-9a-f]{32}");
      }
    }
  }

  @Test
  void executeAndAcquireObservations() {
    DistributedLock a = lock("billing", true);
    int r =
        a.executeWithLock(
            "invoice:1",
            h -> {
              clock.advance(Duration.ofMillis(40));
              return 1;
            });
    assertThat(r).isEqualTo(1);
    TestObservationRegistryAssert.assertThat(observations)
        .hasObservationWithNameEqualTo(LockMetricsListener.EXECUTE_OBSERVATION)
        .that()
        .hasLowCardinalityKeyValue(LockMetricsListener.NAMESPACE_TAG, "billing")
        .hasHighCardinalityKeyValue(LockMetricsListener.KEY_TAG, "invoice:1")
        .hasHighCardinalityKeyValue(LockMetricsListener.HOLD_MS_TAG, "40")
        .hasBeenStarted()
        .hasBeenStopped();
    TestObservationRegistryAssert.assertThat(observations)
        .hasObservationWithNameEqualTo(LockMetricsListener.ACQUIRE_OBSERVATION)
        .that()
        .hasLowCardinalityKeyValue(LockMetricsListener.ACQUIRED_TAG, "true")
        .hasHighCardinalityKeyValue(LockMetricsListener.WAIT_MS_TAG, "0")
        .hasParentObservationContextMatching(
            c -> c.getName().equals(LockMetricsListener.EXECUTE_OBSERVATION))
        .hasBeenStopped();
  }

  @Test
  void aBackendFailureIsTheAcquireObservationsErrorWithoutWaitMs() {
    DistributedLock a = lock("billing", true);
    backend.failAll(LockFailureKind.UNAVAILABLE);
    assertThatThrownBy(() -> a.executeWithLock("k", h -> 1))
        .isInstanceOf(LockBackendUnavailableException.class);
    TestObservationRegistryAssert.assertThat(observations)
        .hasObservationWithNameEqualTo(LockMetricsListener.ACQUIRE_OBSERVATION)
        .that()
        .hasLowCardinalityKeyValue(LockMetricsListener.ACQUIRED_TAG, "false")
        .doesNotHaveHighCardinalityKeyValueWithKey(LockMetricsListener.WAIT_MS_TAG)
        .assertThatError()
        .isInstanceOf(LockBackendUnavailableException.class);
  }

  @Test
  void disabledExecuteStillOpensLockExecute() {
    DistributedLock off = lock("reports", false);
    off.runWithLock("k", h -> {});
    TestObservationRegistryAssert.assertThat(observations)
        .hasObservationWithNameEqualTo(LockMetricsListener.EXECUTE_OBSERVATION)
        .that()
        .hasBeenStopped();
    TestObservationRegistryAssert.assertThat(observations)
        .hasNumberOfObservationsWithNameEqualTo(LockMetricsListener.ACQUIRE_OBSERVATION, 0);
  }
}
