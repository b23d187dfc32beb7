@file:JvmName("CoroutineLeadership")

package io.hostloom.kotlin

import io.hostloom.leadership.LeaderElector
import io.hostloom.leadership.Leadership
import io.hostloom.leadership.LeadershipChange
import io.hostloom.leadership.LeadershipListener
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.channels.awaitClose
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.buffer
import kotlinx.coroutines.flow.callbackFlow
import kotlinx.coroutines.future.await

/*
 * Coroutine forms of a LeaderElector. The elector runs the election (start() and stop() as usual);
 * these only observe it, and cancelling them stops only the observation. Needs hostloom-leadership.
 */

/**
 * Suspends until this instance leads and returns the current term, whose [Leadership.term] is the
 * fencing token of the grant. Cancelling stops only this wait, not the election.
 *
 * @throws IllegalStateException when the elector was stopped
 */
public suspend fun LeaderElector.awaitLeadership(): Leadership = awaitLeadershipAsync().await()

/**
 * Waits for leadership ([awaitLeadership]) and runs [action] with the term while it lasts: when the
 * term ends (lost, resigned, stopped) the action is cancelled and this throws
 * [LeadershipEndedException] (a `CancellationException`). Returning from the action does not resign:
 * call `resign()` or `stop()` for that.
 */
public suspend fun <T> LeaderElector.withLeadership(
  action: suspend CoroutineScope.(Leadership) -> T
): T {
  val term = awaitLeadership()
  return cancelWhen(term.ended(), ::LeadershipEndedException) { action(term) }
}

/**
 * The elector's leadership changes from collection on, in the order it reports them: `ACQUIRED`
 * with the new term (the grant's fencing token), then `LOST`, `RESIGNED` or `STOPPED` with the term
 * that ended. The listener is removed when the collection ends. A slow collector buffers changes
 * (they are few), so the elector's thread never waits for it.
 */
public fun LeaderElector.leadershipChanges(): Flow<LeadershipChange> =
  callbackFlow {
      val listener =
        object : LeadershipListener {
          override fun onChange(change: LeadershipChange) {
            trySend(change)
          }
        }
      addListener(listener)
      awaitClose { removeListener(listener) }
    }
    .buffer(Channel.UNLIMITED)
