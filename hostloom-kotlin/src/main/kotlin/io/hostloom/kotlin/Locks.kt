@file:JvmName("CoroutineLocks")

package io.hostloom.kotlin

import io.hostloom.locking.DistributedLock
import io.hostloom.locking.LockHandle
import io.hostloom.locking.LockOptions
import io.hostloom.locking.OnLost
import java.time.Duration
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.future.await
import kotlinx.coroutines.withContext

/*
 * Suspend forms of the lock, over its non-blocking *Async methods: none of them blocks a thread.
 * They are named await* because an extension cannot shadow the blocking members of the same name.
 */

/**
 * Suspends until [key] is acquired within `options.maxWait()` and returns the handle, which the
 * caller owns and releases ([awaitRelease], `close()`, or use [withLock]).
 *
 * Errors are the kernel's: `LockNotAcquiredException` when the key stays busy past `maxWait`,
 * `LockBackendUnavailableException`, and argument, reentrancy and closed-lock errors (thrown before
 * any suspension).
 *
 * **Cancellation** follows the kernel's rule for a cancelled future: the wait is abandoned, a backend
 * command already sent is not cancelled, and a grant that arrives afterwards is released by the lock
 * (one owner-checked release). A handle granted just as the coroutine was cancelled, and so never
 * returned, is released here.
 */
public suspend fun DistributedLock.awaitAcquire(
  key: String,
  options: LockOptions = LockOptions.DEFAULTS,
): LockHandle = acquireAsync(key, options).awaitAbandoning { releaseUndelivered(it) }

/**
 * Like [awaitAcquire], but returns `null` when the key stays held past `options.maxWait()`
 * (contention is a value, as in `DistributedLock.tryAcquire`); by default it does not wait.
 */
public suspend fun DistributedLock.awaitTryAcquire(
  key: String,
  options: LockOptions = LockOptions.SKIP_IF_BUSY,
): LockHandle? =
  tryAcquireAsync(key, options).awaitAbandoning { it.ifPresent(::releaseUndelivered) }.orElse(null)

/**
 * Sets the lease to [lease] from the moment the request is sent (`LockHandle.extendAsync`): `true`
 * when extended, `false` when the handle is closed or lost, the backend refused or the call failed.
 * Cancelling before the extension is sent keeps it from being sent; after that it only ends the wait.
 *
 * @throws IllegalArgumentException when [lease] is not positive
 */
public suspend fun LockHandle.awaitExtend(lease: Duration): Boolean = extendAsync(lease).await()

/**
 * Releases the handle and suspends until the backend answered; never throws but
 * `CancellationException`. A release once started runs to its end even if the coroutine is
 * cancelled meanwhile.
 */
public suspend fun LockHandle.awaitRelease() {
  closeAsync().awaitLeavingAlone()
}

/**
 * Acquires [key] ([awaitAcquire]), runs [action] with the handle and releases it when the action
 * returns, throws or is cancelled; the release runs in `NonCancellable`, so a cancelled coroutine
 * still releases before it ends. What the action throws propagates unchanged.
 *
 * With `OnLost.CANCEL` a loss of the lease cancels the action and this throws [LockLostException]
 * (a `CancellationException`, like `withTimeout`'s); with `OnLost.OBSERVE` (the default) the action
 * goes on and `handle.lost()` reports the loss.
 */
public suspend fun <T> DistributedLock.withLock(
  key: String,
  options: LockOptions = LockOptions.DEFAULTS,
  action: suspend CoroutineScope.(LockHandle) -> T,
): T {
  val handle = awaitAcquire(key, options)
  try {
    return if (options.onLost() == OnLost.CANCEL) {
      cancelWhen(handle.lost(), { LockLostException(key, it) }) { action(handle) }
    } else {
      coroutineScope { action(handle) }
    }
  } finally {
    withContext(NonCancellable) { handle.awaitRelease() }
  }
}

private fun releaseUndelivered(handle: LockHandle) {
  handle.closeAsync() // never fails; nobody waits for it
}
