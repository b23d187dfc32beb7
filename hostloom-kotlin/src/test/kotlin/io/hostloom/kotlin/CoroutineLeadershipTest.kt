package io.hostloom.kotlin

import io.hostloom.leadership.ChangeType
import io.hostloom.leadership.LeaderElector
import io.hostloom.leadership.Leadership
import io.hostloom.locking.testing.ManualLockClock
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.flow.take
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.test.runCurrent
import kotlinx.coroutines.test.runTest
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import org.slf4j.helpers.NOPLogger

/** withLeadership and the Flow of changes, on the manual clock. */
@OptIn(ExperimentalCoroutinesApi::class)
internal class CoroutineLeadershipTest {
  private val clock = ManualLockClock()
  private val lock = TestLocks.inMemory(clock)
  private val elector: LeaderElector =
    LeaderElector.builder(lock, "billing")
      .clock(clock)
      .jitterSource { 0.0 }
      .logger(NOPLogger.NOP_LOGGER)
      .build()

  @AfterEach
  fun close() {
    elector.close()
    lock.close()
  }

  @Test
  fun theFlowCarriesEachTermWithItsFencingToken() = runTest {
    val changes = async { elector.leadershipChanges().take(2).toList() }
    runCurrent() // collecting: the listener is registered

    elector.start()
    clock.runDueTasks()
    val term = elector.awaitLeadership()
    assertThat(elector.resign()).isTrue()

    val seen = changes.await()
    assertThat(seen.map { it.type() }).containsExactly(ChangeType.ACQUIRED, ChangeType.RESIGNED)
    assertThat(seen.map { it.term() }).containsOnly(term.term())
    assertThat(term.term()).isPositive() // the grant's fencing token
  }

  @Test
  fun withLeadershipRunsTheActionUnderTheTermAndCancelsItWhenTheTermEnds() = runTest {
    val started = CompletableDeferred<Leadership>()
    val led = async {
      runCatching {
        elector.withLeadership { term ->
          started.complete(term)
          awaitCancellation()
        }
      }
    }
    runCurrent()
    assertThat(started.isActive).`as`("no leadership before the elector runs").isTrue()

    elector.start()
    clock.runDueTasks()
    val term = started.await()
    assertThat(term.isCurrent).isTrue()
    elector.resign()

    assertThat(led.await().exceptionOrNull())
      .isInstanceOfSatisfying(LeadershipEndedException::class.java) {
        assertThat(it.change.type()).isEqualTo(ChangeType.RESIGNED)
        assertThat(it.change.term()).isEqualTo(term.term())
      }
  }

  @Test
  fun withLeadershipReturnsTheActionsValueAndKeepsLeading() = runTest {
    elector.start()
    clock.runDueTasks()

    val token = elector.withLeadership { term -> term.term() }

    assertThat(token).isPositive()
    assertThat(elector.isLeader).isTrue() // returning does not resign
  }

  @Test
  fun cancellingAWaitForLeadershipLeavesTheElectionAlone() = runTest {
    val waiting = async { elector.awaitLeadership() }
    runCurrent()
    waiting.cancel()
    runCurrent()

    elector.start()
    clock.runDueTasks()

    assertThat(waiting.isCancelled).isTrue()
    assertThat(elector.isLeader).isTrue()
    assertThat(elector.awaitLeadership().term()).isPositive()
  }
}
