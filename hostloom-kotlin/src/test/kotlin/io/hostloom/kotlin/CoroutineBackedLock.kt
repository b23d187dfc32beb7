package io.hostloom.kotlin

import io.hostloom.locking.DistributedLock
import io.hostloom.locking.LockHandle
import io.hostloom.locking.LockInterruptedException
import io.hostloom.locking.LockOptions
import io.hostloom.locking.LockedAsyncFunction
import io.hostloom.locking.LockedCallable
import java.util.Optional
import java.util.concurrent.CompletableFuture
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.future.await
import kotlinx.coroutines.future.future
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.runInterruptible

/**
 * A [DistributedLock] whose every acquisition goes through the suspend forms: the blocking forms run
 * them in `runBlocking` on the calling (test) thread, the async forms are coroutines turned into
 * futures (cancelling one cancels its coroutine); so the kernel conformance suite checks the
 * coroutine forms.
 */
internal class CoroutineBackedLock(private val lock: DistributedLock) : DistributedLock {
  private val scope = CoroutineScope(Dispatchers.Unconfined)

  override fun isCoordinated(): Boolean = lock.isCoordinated

  override fun <T, X : Exception> executeWithLock(
    key: String,
    options: LockOptions,
    action: LockedCallable<T, X>,
  ): T {
    var interrupted: InterruptedException? = null
    try {
      return blocking(key) {
        // blocking code off the event loop, as a coroutine user runs it; runInterruptible turns
        // OnLost.CANCEL's cancellation into the interrupt the blocking contract promises
        lock.withLock(key, options) { h ->
          runInterruptible(Dispatchers.IO) {
            try {
              action.call(h)
            } catch (e: InterruptedException) {
              interrupted = e
              throw e
            }
          }
        }
      }
    } catch (e: LockLostException) {
      throw interrupted ?: e // the blocking contract: the action's own exception propagates
    }
  }

  override fun acquire(key: String, options: LockOptions): LockHandle =
    blocking(key) { lock.awaitAcquire(key, options) }

  override fun tryAcquire(key: String, options: LockOptions): Optional<LockHandle> =
    Optional.ofNullable(blocking(key) { lock.awaitTryAcquire(key, options) })

  override fun acquireAsync(key: String, options: LockOptions): CompletableFuture<LockHandle> =
    scope.future(start = CoroutineStart.UNDISPATCHED) { lock.awaitAcquire(key, options) }

  override fun tryAcquireAsync(
    key: String,
    options: LockOptions,
  ): CompletableFuture<Optional<LockHandle>> =
    scope.future(start = CoroutineStart.UNDISPATCHED) {
      Optional.ofNullable(lock.awaitTryAcquire(key, options))
    }

  override fun <T> executeWithLockAsync(
    key: String,
    options: LockOptions,
    action: LockedAsyncFunction<T>,
  ): CompletableFuture<T> =
    scope.future(start = CoroutineStart.UNDISPATCHED) {
      lock.withLock(key, options) { h -> action.apply(h).toCompletableFuture().await() }
    }

  override fun close() {
    lock.close()
  }

  /** `runBlocking` with the blocking API's interruption contract. */
  private fun <T> blocking(key: String, block: suspend CoroutineScope.() -> T): T =
    try {
      runBlocking(block = block)
    } catch (e: InterruptedException) {
      Thread.currentThread().interrupt()
      throw LockInterruptedException.acquiring(key)
    }
}
