package io.hostloom.kotlin.readme

import io.hostloom.leadership.LeaderElector
import io.hostloom.locking.DistributedLock
import io.hostloom.locking.LockingOptions
import io.hostloom.locking.memory.InMemoryLockBackend
import io.hostloom.locking.testing.ManualLockClock
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.launch
import kotlinx.coroutines.test.runCurrent
import kotlinx.coroutines.test.runTest
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/** The root README's Kotlin snippet ([nightlyReport], [watchLeadership]) runs as shown. */
@OptIn(ExperimentalCoroutinesApi::class)
internal class NightlyReportTest {
  @Test
  fun theSnippetBuildsUnderTheLockAndReportsLeadership() = runTest {
    val clock = ManualLockClock()
    DistributedLock.builder(LockingOptions.of("readme"), InMemoryLockBackend(clock))
      .clock(clock)
      .build()
      .use { lock ->
        assertThat(nightlyReport(lock) { token -> "report #$token" }).startsWith("report #")
        assertThat(lock.tryAcquire("nightly-report")).isPresent() // released again

        LeaderElector.builder(lock, "reports").clock(clock).build().use { elector ->
          val first = CompletableDeferred<String>()
          val watching = launch { watchLeadership(elector) { first.complete(it) } }
          runCurrent()
          elector.start()
          clock.runDueTasks()
          assertThat(first.await()).startsWith("ACQUIRED term ")
          watching.cancel()
        }
      }
  }
}
