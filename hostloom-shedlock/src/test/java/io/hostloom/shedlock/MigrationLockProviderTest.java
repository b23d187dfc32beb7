package io.hostloom.shedlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.support.LockException;
import org.junit.jupiter.api.Test;

/**
 * The two phases of a rolling migration, with two stores standing for the old provider's and
 * HostLoom's (separate namespaces, so they cannot see each other, as two layouts cannot): an old
 * node, a phase-1 node and a phase-2 node, where every pair that may run at the same time excludes.
 */
class MigrationLockProviderTest {
  private final InMemoryLockBackend backend = new InMemoryLockBackend();
  private final LockProvider oldStore =
      new HostLoomLockProvider(DistributedLock.create(LockingOptions.of("old"), backend));
  private final LockProvider newStore =
      new HostLoomLockProvider(DistributedLock.create(LockingOptions.of("new"), backend));
  private final LockProvider phase1 = MigrationLockProvider.of(oldStore, newStore);

  private static LockConfiguration job(String name) {
    return new LockConfiguration(Instant.now(), name, Duration.ofMinutes(1), Duration.ZERO);
  }

  @Test
  void phaseOneExcludesWithOldNodesAndWithHostLoomOnlyNodes() {
    // an old node runs: phase 1 skips
    SimpleLock oldRun = oldStore.lock(job("j")).orElseThrow();
    assertThat(phase1.lock(job("j"))).isEmpty();
    oldRun.unlock();
    assertThat(newStore.lock(job("j")).map(this::unlocked)).contains(true); // phase 1 left nothing

    // a phase-1 node runs: an old node and a phase-2 node skip
    SimpleLock both = phase1.lock(job("j")).orElseThrow();
    assertThat(oldStore.lock(job("j"))).isEmpty();
    assertThat(newStore.lock(job("j"))).isEmpty();
    both.unlock();
    assertThat(oldStore.lock(job("j")).map(this::unlocked)).contains(true);

    // a phase-2 node runs: phase 1 skips and gives the old lock back
    SimpleLock newRun = newStore.lock(job("j")).orElseThrow();
    assertThat(phase1.lock(job("j"))).isEmpty();
    assertThat(oldStore.lock(job("j")).map(this::unlocked)).contains(true);
    newRun.unlock();
  }

  @Test
  void extendExtendsBothAndAFailingSecondProviderReleasesTheFirst() {
    SimpleLock both = phase1.lock(job("e")).orElseThrow();
    Optional<SimpleLock> extended = both.extend(Duration.ofMinutes(2), Duration.ZERO);
    assertThat(extended).isPresent();
    assertThat(oldStore.lock(job("e"))).isEmpty();
    extended.get().unlock();
    assertThat(newStore.lock(job("e")).map(this::unlocked)).contains(true);

    LockProvider failing =
        config -> {
          throw new LockException("down");
        };
    assertThatThrownBy(() -> MigrationLockProvider.of(oldStore, failing).lock(job("f")))
        .isInstanceOf(LockException.class);
    assertThat(oldStore.lock(job("f")).map(this::unlocked)).contains(true);
  }

  private boolean unlocked(SimpleLock l) {
    l.unlock();
    return true;
  }
}
