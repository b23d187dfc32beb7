package io.hostloom.scheduling;

import java.time.Instant;
import java.util.Optional;

/**
 * A snapshot of one schedule in this process, for probes and health endpoints.
 *
 * @param schedule the schedule's name
 * @param nextDue when the next occurrence is due; empty when no trigger drives the schedule, it was
 *     cancelled, or its trigger has no further occurrence
 * @param running whether a job of this schedule runs in this process now
 * @param runCount how many jobs of this schedule started in this process
 * @param lastResult the last finished occurrence (skips and guard failures included)
 */
public record ScheduleState(
    String schedule,
    Optional<Instant> nextDue,
    boolean running,
    long runCount,
    Optional<RunResult> lastResult) {}
