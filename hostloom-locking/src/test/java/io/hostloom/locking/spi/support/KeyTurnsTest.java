package io.hostloom.locking.spi.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class KeyTurnsTest {
  private final KeyTurns turns = new KeyTurns();
  private final List<String> started = new ArrayList<>();

  private CompletableFuture<String> op(String name, CompletableFuture<String> answer) {
    return turns.run(
        name.substring(0, 1),
        () -> {
          started.add(name);
          return answer;
        });
  }

  @Test
  void operationsOfOneKeyStartOneAfterAnotherInArrivalOrder() {
    CompletableFuture<String> a1 = new CompletableFuture<>();
    CompletableFuture<String> a2 = new CompletableFuture<>();
    CompletableFuture<String> first = op("a1", a1);
    CompletableFuture<String> second = op("a2", a2);
    CompletableFuture<String> third = op("a3", CompletableFuture.completedFuture("3"));
    assertThat(started).containsExactly("a1");
    a1.complete("1");
    assertThat(first).isCompletedWithValue("1");
    assertThat(started).containsExactly("a1", "a2");
    assertThat(third).isNotDone();
    a2.completeExceptionally(new IllegalStateException("lost"));
    assertThat(second).isCompletedExceptionally();
    assertThat(started).as("a failure hands the turn on").containsExactly("a1", "a2", "a3");
    assertThat(third).isCompletedWithValue("3");
    assertThat(turns.busyKeys()).isZero();
  }

  @Test
  void otherKeysDoNotWait() {
    CompletableFuture<String> a1 = new CompletableFuture<>();
    op("a1", a1);
    CompletableFuture<String> b = op("b1", CompletableFuture.completedFuture("b"));
    assertThat(b).isCompletedWithValue("b");
    assertThat(turns.busyKeys()).isEqualTo(1);
    a1.complete("1");
    assertThat(turns.busyKeys()).isZero();
  }

  @Test
  void aSupplierThatThrowsFailsItsOwnTurnOnly() {
    CompletableFuture<String> thrown =
        turns.run(
            "k",
            () -> {
              throw new IllegalArgumentException("bad");
            });
    assertThat(thrown).isCompletedExceptionally();
    assertThat(turns.run("k", () -> CompletableFuture.completedFuture("next")))
        .isCompletedWithValue("next");
    assertThat(turns.busyKeys()).isZero();
  }
}
