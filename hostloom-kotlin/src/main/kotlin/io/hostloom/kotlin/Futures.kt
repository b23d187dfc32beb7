package io.hostloom.kotlin

import java.util.concurrent.CompletableFuture
import java.util.concurrent.CompletionException
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.async
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.launch
import kotlinx.coroutines.suspendCancellableCoroutine

/**
 * Waits for a kernel acquisition. Cancelling the coroutine cancels the future, which for the
 * kernel's futures only abandons the wait (a command already sent runs on and a late grant is
 * released by the lock); a value that completed the future but was not delivered to the coroutine
 * (granted just as it was cancelled, or by a future that ignores cancellation) goes to [undelivered].
 */
internal suspend fun <T> CompletableFuture<T>.awaitAbandoning(undelivered: (T) -> Unit): T =
  suspendCancellableCoroutine { cont ->
    whenComplete { value, error ->
      if (error == null) {
        @Suppress("UNCHECKED_CAST")
        cont.resume(value as T) { _, notDelivered, _ -> undelivered(notDelivered) }
      } else {
        cont.resumeWith(Result.failure(unwrap(error)))
      }
    }
    cont.invokeOnCancellation { cancel(false) }
  }

/**
 * Waits for [this] without ever cancelling it: for a release that must run to its end, and for the
 * shared signals of the kernel and the elector.
 */
internal suspend fun <T> CompletableFuture<T>.awaitLeavingAlone(): T =
  suspendCancellableCoroutine { cont ->
    whenComplete { value, error ->
      @Suppress("UNCHECKED_CAST")
      cont.resumeWith(if (error == null) Result.success(value as T) else Result.failure(unwrap(error)))
    }
  }

/**
 * Runs [action] and cancels it with [cause] of the signal's value when [signal] completes first:
 * the one way a lost lease or an ended term stops the work it guarded.
 */
internal suspend fun <S, T> cancelWhen(
  signal: CompletableFuture<S>,
  cause: (S) -> CancellationException,
  action: suspend CoroutineScope.() -> T,
): T = coroutineScope {
  val body = async(block = action)
  val watch = launch {
    val s = signal.awaitLeavingAlone()
    body.cancel(cause(s))
  }
  try {
    body.await()
  } finally {
    watch.cancel()
  }
}

private fun unwrap(e: Throwable): Throwable =
  if (e is CompletionException && e.cause != null) e.cause!! else e
