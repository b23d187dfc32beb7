package io.hostloom.kotlin.readme

// snippet:kotlin
import io.hostloom.kotlin.leadershipChanges
import io.hostloom.kotlin.withLock
import io.hostloom.leadership.LeaderElector
import io.hostloom.locking.DistributedLock

/** Builds the nightly report on one instance at a time; the fencing token goes with the write. */
suspend fun nightlyReport(lock: DistributedLock, build: suspend (fencingToken: Long) -> String) =
  lock.withLock("nightly-report") { handle -> build(handle.fencingToken()) }

/** Reports every change of leadership with its term, until the collecting coroutine is cancelled. */
suspend fun watchLeadership(elector: LeaderElector, report: (String) -> Unit) =
  elector.leadershipChanges().collect { change -> report("${change.type()} term ${change.term()}") }
// end:kotlin
