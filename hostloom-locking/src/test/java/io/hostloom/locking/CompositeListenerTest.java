package io.hostloom.locking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link LockEventListener#composite}: every listener is called, each with its own context. */
class CompositeListenerTest {
  private final KernelFixture fx = new KernelFixture();

  @Test
  void everyListenerSeesEveryEventWithItsOwnContext() {
    RecordingListener first = new RecordingListener();
    RecordingListener second = new RecordingListener();
    DistributedLock lock =
        DistributedLock.builder(KernelFixture.options().build(), fx.backend)
            .clock(fx.clock)
            .listener(LockEventListener.composite(first, second))
            .logger(fx.log)
            .build();
    lock.runWithLock("k", h -> {});
    lock.close();

    assertThat(first.events()).isEqualTo(second.events());
    assertThat(first.events())
        .contains(
            "execute-start:k:true",
            "acquire-start:k:exec-ctx",
            "acquire:ACQUIRED:1",
            "released:true",
            "execute-end:k:exec-ctx:ok",
            "closed:test");
  }

  @Test
  void aFailingListenerCostsTheOthersNothingAndIsLogged() {
    RecordingListener after = new RecordingListener();
    LockEventListener failing =
        new LockEventListener() {
          @Override
          public Object acquireStarted(AcquireStarted e) {
            throw new IllegalStateException("boom");
          }

          @Override
          public void released(Released e) {
            throw new IllegalStateException("boom");
          }
        };
    DistributedLock lock =
        DistributedLock.builder(KernelFixture.options().build(), fx.backend)
            .clock(fx.clock)
            .listener(LockEventListener.composite(failing, after))
            .logger(fx.log)
            .build();
    lock.runWithLock("k", h -> {});

    assertThat(after.events())
        .contains("acquire-start:k:exec-ctx", "acquire:ACQUIRED:1", "released:true");
    assertThat(fx.log.containing("[3107]")).hasSize(2);
  }

  @Test
  void usedDirectlyItCallsEveryListenerThenRethrowsTheFirstFailure() {
    List<String> calls = new ArrayList<>();
    LockEventListener a =
        new LockEventListener() {
          @Override
          public void leaseLost(LeaseLost e) {
            calls.add("a");
            throw new IllegalStateException("a failed");
          }
        };
    LockEventListener b =
        new LockEventListener() {
          @Override
          public void leaseLost(LeaseLost e) {
            calls.add("b");
            throw new IllegalArgumentException("b failed");
          }
        };
    LockEventListener both = LockEventListener.composite(a, b);
    assertThatThrownBy(
            () -> both.leaseLost(new LockEventListener.LeaseLost("ns", "k", LossReason.EXPIRED)))
        .hasMessage("a failed")
        .satisfies(
            e ->
                assertThat(e.getSuppressed())
                    .singleElement()
                    .extracting(Throwable::getMessage)
                    .isEqualTo("b failed"));
    assertThat(calls).containsExactly("a", "b");
  }

  @Test
  void oneOrNoListenerNeedsNoComposite() {
    LockEventListener one = new RecordingListener();
    assertThat(LockEventListener.composite(one)).isSameAs(one);
    assertThat(LockEventListener.composite(List.of())).isSameAs(LockEventListener.NO_OP);
  }
}
