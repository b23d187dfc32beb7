package io.hostloom.locking;

import io.hostloom.locking.LockEventListener.ExtendResult;
import java.time.Duration;

/**
 * Told how each automatic extension of one handle ended ({@link LockOptions#onAutoExtension}): what
 * a leader or a schedule claim needs to report renewals. It is told before the loss a refusal or a
 * late reply causes ({@link LockHandle#lost()} completes right after); a failure keeps the lease
 * end and is retried.
 *
 * <p>Runs on the thread that completed the extension (a timer or backend I/O thread); must be quick
 * and must not block. What it throws is logged (3107) and ignored.
 */
@FunctionalInterface
public interface AutoExtensionListener {
  /**
   * @param handle the extended handle
   * @param result how the extension ended
   * @param took from the request to the answer, on the lock's clock
   */
  void extended(LockHandle handle, ExtendResult result, Duration took);
}
