package io.hostloom.docs.semaphore;

// snippet:semaphore
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.semaphore.DistributedSemaphore;
import io.hostloom.locking.semaphore.DistributedSemaphores;
import io.hostloom.locking.semaphore.Permits;
import java.util.Optional;

public class ExportPool {
  /** Runs {@code export} when one of the three permits is free; {@code false} when none is. */
  public static boolean exportWithPermit(DistributedSemaphores semaphores, Runnable export) {
    DistributedSemaphore pool = semaphores.semaphore("export-workers", 3); // N = 3 everywhere
    Optional<Permits> permit = pool.tryAcquire(1, LockOptions.SKIP_IF_BUSY); // one round
    if (permit.isEmpty()) {
      return false;
    }
    try (Permits held = permit.get()) { // released at the end of the block, owner-checked
      export.run();
      return true;
    }
  }
}
// end:semaphore
