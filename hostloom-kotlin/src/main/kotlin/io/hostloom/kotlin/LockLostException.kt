package io.hostloom.kotlin

import io.hostloom.locking.LossReason
import kotlinx.coroutines.CancellationException

/**
 * The lease of [key] was lost while a [withLock] action with `OnLost.CANCEL` ran: the action was
 * cancelled. A `CancellationException`, as `withTimeout`'s is: catch it where the work must know.
 */
public class LockLostException(public val key: String, public val reason: LossReason) :
  CancellationException("lease of '$key' lost ($reason): action cancelled")
