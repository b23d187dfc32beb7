package io.hostloom.docs.semaphore;

import static io.hostloom.docs.semaphore.ExportPool.exportWithPermit;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.semaphore.DistributedSemaphores;
import io.hostloom.locking.semaphore.Permits;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The code of docs/migrating-semaphore.md ({@link ExportPool}), on the in-memory backend. */
class ExportPoolTest {
  @Test
  void runsWithAFreePermitAndSkipsWhenAllThreeAreHeld() {
    AtomicInteger runs = new AtomicInteger();
    try (DistributedSemaphores semaphores =
        DistributedSemaphores.create(LockingOptions.of("docs"), new InMemoryLockBackend())) {
      assertThat(exportWithPermit(semaphores, runs::incrementAndGet)).isTrue();
      try (Permits all =
          semaphores.semaphore("export-workers", 3).acquire(3, LockOptions.SKIP_IF_BUSY)) {
        assertThat(all.permits()).hasSize(3);
        assertThat(exportWithPermit(semaphores, runs::incrementAndGet)).isFalse();
      }
      assertThat(exportWithPermit(semaphores, runs::incrementAndGet)).isTrue();
    }
    assertThat(runs).hasValue(2);
  }
}
