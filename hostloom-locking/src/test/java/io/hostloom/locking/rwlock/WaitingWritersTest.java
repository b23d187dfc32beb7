package io.hostloom.locking.rwlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.testing.ForwardingLockBackend;
import io.hostloom.locking.testing.ManualLockClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The waiting-entry clean-up of a write acquisition that ends without a grant, over the in-memory
 * backend standing in for a write view (its records are the entries): every attempt of the writer
 * in flight when the writer gives up is followed by an owner-checked release, and a later one is
 * not sent.
 */
class WaitingWritersTest {
  private static final Duration LEASE = Duration.ofSeconds(60);

  private final InMemoryLockBackend view = new InMemoryLockBackend(new ManualLockClock());
  private final WaitingWriters writers = new WaitingWriters(view);

  @Test
  void aGivenUpWriterLeavesNoEntry() {
    WaitingWriters.Writer w = firstAttempt("k", "writer-1");
    writers.gaveUp(w).join();
    assertThat(view.read("k").join()).isEmpty();
  }

  /**
   * The kernel checks for the end of its acquisition, then sends: the attempt may come after the
   * clean-up was answered, when nothing would remove its entry again. It is not sent.
   */
  @Test
  void anAttemptSentAfterTheWriterGaveUpIsNotSent() {
    String owner = "writer-2";
    WaitingWriters.Writer w = firstAttempt("k", owner);
    writers.gaveUp(w).join();
    assertThat(writers.acquire("k", owner, "", LEASE).join().granted()).isFalse();
    assertThat(view.read("k").join()).as("no entry of the late attempt").isEmpty();
  }

  /** An attempt in flight when the writer gives up is followed by the release after its reply. */
  @Test
  void anAttemptInFlightWhenTheWriterGaveUpIsCleanedUpAfterItsReply() {
    String owner = "writer-4";
    CompletableFuture<Void> reply = new CompletableFuture<>();
    WaitingWriters delayed =
        new WaitingWriters(
            new ForwardingLockBackend(view) {
              @Override
              public CompletableFuture<AcquireOutcome> acquire(
                  String key, String o, String data, Duration lease) {
                return reply.thenCompose(v -> delegate.acquire(key, o, data, lease));
              }
            });
    WaitingWriters.Writer w = WaitingWriters.begin();
    CompletableFuture<AcquireOutcome> attempt;
    try {
      attempt = delayed.acquire("k", owner, "", LEASE);
    } finally {
      WaitingWriters.started();
    }
    CompletableFuture<Void> cleaned = delayed.gaveUp(w);
    assertThat(cleaned).as("waits for the reply").isNotDone();
    reply.complete(null);
    assertThat(attempt.join().granted()).isTrue();
    cleaned.join();
    assertThat(view.read("k").join()).as("the in-flight attempt's entry").isEmpty();
  }

  @Test
  void aGrantedWritersLaterAttemptsAreLeftAlone() {
    String owner = "writer-3";
    WaitingWriters.Writer w = firstAttempt("k", owner);
    writers.granted(w);
    assertThat(writers.acquire("k", owner, "", LEASE).join().granted()).isTrue();
    assertThat(view.read("k").join()).isPresent();
  }

  private WaitingWriters.Writer firstAttempt(String key, String owner) {
    WaitingWriters.Writer w = WaitingWriters.begin();
    try {
      assertThat(writers.acquire(key, owner, "", LEASE).join().granted()).isTrue();
    } finally {
      WaitingWriters.started();
    }
    return w;
  }
}
