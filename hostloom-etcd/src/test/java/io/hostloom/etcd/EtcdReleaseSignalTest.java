package io.hostloom.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.Watch;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.capability.ReleaseSignalSuite;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The release-signal suite over etcd (one watch per instance), plus what is etcd's own: the watch
 * is confirmed without a wait having to start it, waits registered before the confirmation wake at
 * it, a backend without the signal answers false, and close ends pending waits.
 */
class EtcdReleaseSignalTest extends ReleaseSignalSuite {
  private static final Duration LONG = Duration.ofSeconds(60);

  @Override
  protected LockBackend newBackend() {
    return EtcdLockBackend.builder().endpoints(EtcdServerProcess.shared().endpoint()).build();
  }

  @Override
  protected void awaitSignalReady(LockBackend instance) {
    EtcdLockBackend b = (EtcdLockBackend) instance;
    TestTiming.await("the release watch is confirmed", b::releaseSignalUp, Duration.ofSeconds(10));
  }

  @Override
  protected OptionalInt pendingWaits(LockBackend instance) {
    return OptionalInt.of(((EtcdLockBackend) instance).releaseWaiters());
  }

  @Override
  protected Duration shortLease() {
    return Duration.ofSeconds(1);
  }

  // past a 1 s lease, etcd's expiry check (every 500 ms) and the revoke's commit
  @Override
  protected Duration shortWait() {
    return Duration.ofMillis(1500);
  }

  @Test
  void theWatchIsConfirmedWithoutAnyWait() {
    try (EtcdLockBackend b =
        EtcdLockBackend.builder().endpoints(EtcdServerProcess.shared().endpoint()).build()) {
      TestTiming.await(
          "the release watch is confirmed", b::releaseSignalUp, Duration.ofSeconds(10));
      assertThat(b.releaseWaiters()).isZero();
    }
  }

  @Test
  void aWaitThatBeganBeforeTheConfirmationWakesAtIt() {
    CompletableFuture<Void> confirm = new CompletableFuture<>();
    try (Client real = Client.builder().endpoints(EtcdServerProcess.shared().endpoint()).build();
        EtcdLockBackend b =
            EtcdLockBackend.builder().client(confirmationHeld(real, confirm)).build()) {
      CompletableFuture<Boolean> early = b.awaitRelease(key("early"), LONG);
      assertThat(b.releaseSignalUp()).as("the confirmation is held back").isFalse();
      confirm.complete(null);
      assertThat(TestTiming.get(early, Duration.ofSeconds(10)))
          .as("a wait that began before the watch was confirmed wakes at the confirmation")
          .isTrue();
      assertThat(b.releaseSignalUp()).isTrue();
      TestTiming.await(
          "the woken wait is gone", () -> b.releaseWaiters() == 0, Duration.ofSeconds(10));
    }
  }

  /** {@code real}, with etcd's confirmation of each watch held back until {@code confirm}. */
  private static Client confirmationHeld(Client real, CompletableFuture<Void> confirm) {
    Watch held = JetcdProxies.holdingConfirmation(real.getWatchClient(), confirm);
    return JetcdProxies.proxy(
        Client.class,
        (p, m, args) ->
            m.getName().equals("getWatchClient") ? held : JetcdProxies.call(real, m, args));
  }

  @Test
  void withTheSignalOffWaitsAnswerFalseAtOnce() {
    try (EtcdLockBackend b =
        EtcdLockBackend.builder()
            .endpoints(EtcdServerProcess.shared().endpoint())
            .releaseSignal(false)
            .build()) {
      assertThat(b.awaitRelease(key("off"), LONG)).isCompletedWithValue(false);
      assertThat(b.releaseSignalUp()).isFalse();
    }
  }

  @Test
  void closeEndsPendingWaitsWithFalse() {
    EtcdLockBackend b =
        EtcdLockBackend.builder().endpoints(EtcdServerProcess.shared().endpoint()).build();
    awaitSignalReady(b);
    CompletableFuture<Boolean> wait = b.awaitRelease(key("closed"), LONG);
    b.close();
    assertThat(wait).isCompletedWithValue(false);
    assertThat(b.awaitRelease(key("closed"), LONG)).isCompletedWithValue(false);
  }
}
