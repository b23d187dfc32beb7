package io.hostloom.locking.rwlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.testing.ManualLockClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The waiting-entry clean-up of a write acquisition that ends without a grant, over the in-memory
 * backend standing in for a write view (its records are the entries): every attempt of the writer
 * is followed by an owner-checked release once the writer gave up.
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

  /** The kernel checks for the end of its acquisition, then sends: the attempt may come after. */
  @Test
  void anAttemptSentWhileTheWriterGaveUpIsCleanedUpAfterItsReply() {
    String owner = "writer-2";
    WaitingWriters.Writer w = firstAttempt("k", owner);
    writers.gaveUp(w).join();
    assertThat(writers.acquire("k", owner, "", LEASE).join().granted()).isTrue();
    assertThat(view.read("k").join()).as("the late attempt's entry").isEmpty();
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
