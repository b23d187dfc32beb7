package io.hostloom.leadership;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.helpers.NOPLogger;

/** Events posted while another thread delivers are delivered by that thread, after, in order. */
class OrderedListenersTest {

  private static LeadershipChange change(ChangeType type, long term) {
    return new LeadershipChange("r", type, term, Instant.EPOCH, "");
  }

  @Test
  void aSecondThreadNeverDeliversWhileTheFirstIsInsideAListener() throws Exception {
    OrderedListeners listeners =
        new OrderedListeners("r", NOPLogger.NOP_LOGGER, LeadershipListener.NO_OP);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);
    List<LeadershipChange> seen = new CopyOnWriteArrayList<>();
    listeners.add(
        new LeadershipListener() {
          @Override
          public void onChange(LeadershipChange c) {
            seen.add(c);
            if (c.type() == ChangeType.ACQUIRED) {
              entered.countDown();
              try {
                proceed.await(10, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
          }
        });
    Thread first =
        new Thread(
            () -> {
              listeners.postChange(change(ChangeType.ACQUIRED, 1));
              listeners.drain();
            });
    first.start();
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    listeners.postChange(change(ChangeType.LOST, 1));
    listeners.drain(); // returns at once: the first thread is delivering
    assertThat(seen).extracting(LeadershipChange::type).containsExactly(ChangeType.ACQUIRED);
    proceed.countDown();
    first.join(10_000);
    assertThat(seen)
        .extracting(LeadershipChange::type)
        .containsExactly(ChangeType.ACQUIRED, ChangeType.LOST);
  }
}
