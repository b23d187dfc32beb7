package io.hostloom.reliability;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.testkit.LockHistory;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A lock client inside the test JVM (a successor, a bystander), recording its holds to a ledger of
 * its own exactly as a {@link LockWorker} does, so its history merges with the workers'.
 */
final class LockClient implements AutoCloseable {
  private final BackendClient client;
  private final LockHistory history;
  private final RecordingBackend recording;
  private final DistributedLock lock;
  private final Path ledger;

  LockClient(BackendSpec spec, Path dir, String label) {
    this.ledger = dir.resolve(label + ".ledger");
    this.client = spec.open();
    this.history = LockHistory.appendingTo(ledger);
    this.recording = new RecordingBackend(client.backend(), history, label);
    this.lock = DistributedLock.create(LockingOptions.of("rel"), recording);
  }

  DistributedLock lock() {
    return lock;
  }

  Path ledger() {
    return ledger;
  }

  /** Options that wait up to {@code maxWait}, retrying every few milliseconds. */
  static LockOptions patient(Duration lease, Duration maxWait) {
    return LockOptions.builder()
        .lease(lease)
        .maxWait(maxWait)
        .retry(LockRetryPolicy.interval(100_000, Duration.ofMillis(5)))
        .build();
  }

  @Override
  public void close() {
    lock.close();
    client.close();
    history.close();
  }
}
