package io.hostloom.kotlin

import io.hostloom.leadership.LeadershipChange
import kotlinx.coroutines.CancellationException

/**
 * The term a [withLeadership] action ran under ended ([change] says how: lost, resigned, stopped):
 * the action was cancelled. A `CancellationException`, as `withTimeout`'s is.
 */
public class LeadershipEndedException(public val change: LeadershipChange) :
  CancellationException("leadership of '${change.role()}' term ${change.term()} ended (${change.type()})")
