package io.hostloom.kotlin

import io.hostloom.locking.DistributedLock
import io.hostloom.locking.LockHandle
import io.hostloom.locking.LockNotAcquiredException
import io.hostloom.locking.LockOptions
import io.hostloom.locking.LockRetryPolicy
import io.hostloom.locking.LossReason
import io.hostloom.locking.OnLost
import io.hostloom.locking.memory.InMemoryLockBackend
import io.hostloom.locking.testing.CountingLockBackend
import io.hostloom.locking.testing.CountingLockBackend.Operation
import io.hostloom.locking.testing.FaultInjectingLockBackend
import io.hostloom.locking.testing.ManualLockClock
import java.time.Duration
import java.util.Optional
import java.util.concurrent.CompletableFuture
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.launch
import kotlinx.coroutines.test.runCurrent
import kotlinx.coroutines.test.runTest
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test

/**
 * The suspend forms on the in-memory backend. The kernel's timing runs on its manual clock (the
 * tests advance it); the coroutines on kotlinx-coroutines-test's scheduler, whose `runCurrent` runs
 * every coroutine that can go on, so nothing here sleeps.
 */
@OptIn(ExperimentalCoroutinesApi::class)
internal class CoroutineLockTest {
  private val clock = ManualLockClock()
  private val counting = CountingLockBackend(InMemoryLockBackend(clock))
  private val faults = FaultInjectingLockBackend(counting)
  private val lock = TestLocks.over(faults, clock)
  private val other = TestLocks.over(faults, clock)

  private val waitTenSeconds: LockOptions =
    LockOptions.builder()
      .lease(Duration.ofSeconds(30))
      .maxWait(Duration.ofSeconds(10))
      .retry(LockRetryPolicy.interval(100, Duration.ofMillis(100)))
      .build()

  @AfterEach
  fun close() {
    faults.heal()
    lock.close()
    other.close()
  }

  @Test
  fun acquireAndTryAcquireFollowTheKernelsOutcomes() = runTest {
    val held = lock.awaitAcquire("orders")
    assertThat(held.isHeld).isTrue()
    assertThat(other.awaitTryAcquire("orders")).isNull() // contention is a value

    assertThat(held.awaitExtend(Duration.ofMinutes(2))).isTrue()
    held.awaitRelease()

    assertThat(held.isHeld).isFalse()
    val next = other.awaitTryAcquire("orders")
    assertThat(next).isNotNull()
    assertThat(next!!.fencingToken()).isGreaterThan(held.fencingToken())
    next.awaitRelease()
  }

  @Test
  fun aWaitingAcquireIsGrantedWhenTheHolderReleases() = runTest {
    val held = other.awaitAcquire("orders")
    val waiting = async { lock.awaitAcquire("orders", waitTenSeconds) }
    runCurrent()
    assertThat(waiting.isActive).isTrue()

    held.awaitRelease()
    clock.advance(Duration.ofMillis(100)) // the next retry (or the release signal) grants it
    runCurrent()

    assertThat(waiting.isCompleted).isTrue()
    waiting.await().awaitRelease()
  }

  @Test
  fun contentionPastMaxWaitThrowsLockNotAcquired() = runTest {
    val held = other.awaitAcquire("orders")
    val waiting = async { runCatching { lock.awaitAcquire("orders", waitTenSeconds) } }
    runCurrent()
    for (i in 0 until 120) {
      if (waiting.isCompleted) break
      clock.advance(Duration.ofMillis(100))
      runCurrent()
    }

    assertThat(waiting.await().exceptionOrNull())
      .isInstanceOfSatisfying(LockNotAcquiredException::class.java) {
        assertThat(it.key()).isEqualTo("orders")
      }
    held.awaitRelease()
  }

  @Test
  fun cancellingAWaitingAcquireAbandonsTheWaitAndLeavesTheKeyToOthers() = runTest {
    val held = other.awaitAcquire("orders")
    val waiting = launch { lock.awaitAcquire("orders", waitTenSeconds) }
    runCurrent()
    val acquiresBefore = counting.count(Operation.ACQUIRE)

    waiting.cancel()
    runCurrent()
    clock.advance(Duration.ofSeconds(1)) // ten retries' worth: none is sent

    assertThat(waiting.isCancelled).isTrue()
    assertThat(counting.count(Operation.ACQUIRE)).isEqualTo(acquiresBefore)
    held.awaitRelease()
    val next = other.awaitTryAcquire("orders")
    assertThat(next).isNotNull()
    next!!.awaitRelease()
  }

  @Test
  fun aGrantArrivingAfterTheCancellationIsReleasedOnceNotKeptUntilExpiry() = runTest {
    faults.holdReplies(Operation.ACQUIRE)
    val waiting = launch { lock.awaitTryAcquire("orders", waitTenSeconds) }
    runCurrent()
    assertThat(faults.heldReplyCount()).isEqualTo(1) // the backend granted; the reply is late

    waiting.cancel() // the command was sent: the kernel does not cancel it
    runCurrent()
    faults.heal()
    faults.deliverReplies()
    for (i in 0 until 100) {
      if (counting.count(Operation.RELEASE) > 0) break
      clock.advance(Duration.ofMillis(10)) // lets a release bounded by the clock complete
    }

    assertThat(counting.count(Operation.ACQUIRE)).isEqualTo(1)
    assertThat(counting.count(Operation.RELEASE)).isEqualTo(1)
    val next = other.awaitTryAcquire("orders")
    assertThat(next).`as`("released well before its 30 s lease").isNotNull()
    assertThat(clock.elapsed()).isLessThan(Duration.ofSeconds(30))
    next!!.awaitRelease()
  }

  @Test
  fun aHandleGrantedAsTheCoroutineWasCancelledIsReleased() = runTest {
    val gate = uncancellable<LockHandle>()
    val gated = object : DistributedLock by lock {
      override fun acquireAsync(key: String, options: LockOptions) = gate
    }
    val waiting = launch { gated.awaitAcquire("orders") }
    runCurrent()
    val granted = lock.awaitAcquire("orders")

    gate.complete(granted) // the resumption is dispatched, not run yet...
    waiting.cancel() // ...when the coroutine is cancelled: the handle is never returned
    runCurrent()

    assertThat(granted.isHeld).isFalse()
    assertThat(other.awaitTryAcquire("orders")).isNotNull().satisfies({ it!!.close() })
  }

  @Test
  fun aTryAcquireCompletedAfterTheCancellationIsReleased() = runTest {
    val gate = uncancellable<Optional<LockHandle>>()
    val gated = object : DistributedLock by lock {
      override fun tryAcquireAsync(key: String, options: LockOptions) = gate
    }
    val waiting = launch { gated.awaitTryAcquire("orders") }
    runCurrent()
    waiting.cancel() // the future ignores the cancellation and completes later
    runCurrent()
    val granted = lock.awaitAcquire("orders")

    gate.complete(Optional.of(granted))
    runCurrent()

    assertThat(granted.isHeld).isFalse()
  }

  @Test
  fun withLockReleasesOnReturnOnExceptionAndOnCancellation() = runTest {
    assertThat(lock.withLock("orders") { h -> h.fencingToken() }).isPositive()
    assertThat(other.awaitTryAcquire("orders")).isNotNull().satisfies({ it!!.close() })

    val boom = IllegalStateException("boom")
    assertThat(runCatching { lock.withLock<Unit>("orders") { throw boom } }.exceptionOrNull())
      .isSameAs(boom)
    assertThat(other.awaitTryAcquire("orders")).isNotNull().satisfies({ it!!.close() })

    val inside = CompletableDeferred<LockHandle>()
    val job = launch {
      lock.withLock("orders") { h ->
        inside.complete(h)
        awaitCancellation()
      }
    }
    val h = inside.await()
    job.cancel()
    job.join()
    assertThat(h.isHeld).isFalse() // released in NonCancellable before the job ended
    assertThat(counting.count(Operation.RELEASE)).isEqualTo(5)
    assertThat(other.awaitTryAcquire("orders")).isNotNull().satisfies({ it!!.close() })
  }

  @Test
  fun withLockCancelsTheActionWhenTheLeaseIsLostWithOnLostCancel() = runTest {
    val cancelOnLoss =
      LockOptions.builder().lease(Duration.ofSeconds(1)).onLost(OnLost.CANCEL).build()
    val result = async {
      runCatching { lock.withLock("orders", cancelOnLoss) { awaitCancellation() } }
    }
    runCurrent()

    clock.advance(Duration.ofSeconds(1)) // the lease runs out on the lock's clock
    runCurrent()

    assertThat(result.await().exceptionOrNull())
      .isInstanceOfSatisfying(LockLostException::class.java) {
        assertThat(it.key).isEqualTo("orders")
        assertThat(it.reason).isEqualTo(LossReason.EXPIRED)
      }
  }

  @Test
  fun withLockLetsTheActionRunOnAfterALossWithOnLostObserve() = runTest {
    val observe = LockOptions.builder().lease(Duration.ofSeconds(1)).build()
    val lost = CompletableDeferred<Unit>()
    val result = async {
      lock.withLock("orders", observe) { h ->
        h.lost().thenRun { lost.complete(Unit) }
        lost.await()
        "finished"
      }
    }
    runCurrent()

    clock.advance(Duration.ofSeconds(1))
    runCurrent()

    assertThat(result.await()).isEqualTo("finished")
  }

  private fun <T> uncancellable(): CompletableFuture<T> =
    object : CompletableFuture<T>() {
      override fun cancel(mayInterruptIfRunning: Boolean) = false
    }
}
