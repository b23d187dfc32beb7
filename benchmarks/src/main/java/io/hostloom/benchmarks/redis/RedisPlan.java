package io.hostloom.benchmarks.redis;

import java.time.Duration;
import java.util.List;

/**
 * How long and how often each workload runs. Every loop is bounded both in count and in time.
 *
 * @param rounds measured rounds; peers are interleaved inside each round, in a rotating order
 * @param uncontendedCycles acquire + release cycles per peer and round (one thread), run in blocks
 *     of {@link #UNCONTENDED_BLOCK} with the peers alternating block by block
 * @param uncontendedBudget time bound of those cycles
 * @param throughputThreads thread counts of the throughput workload
 * @param throughputKeys keys the throughput threads pick from at random
 * @param throughputWindow duration of one throughput run
 * @param handOffThreads threads contending for the one hand-off key
 * @param handOffWindow duration of one hand-off run
 * @param maxHandOffs count bound of one hand-off run
 * @param maxWait how long one hand-off acquisition waits before it gives up and tries again
 */
public record RedisPlan(
    int rounds,
    int uncontendedCycles,
    Duration uncontendedBudget,
    List<Integer> throughputThreads,
    int throughputKeys,
    Duration throughputWindow,
    int handOffThreads,
    Duration handOffWindow,
    int maxHandOffs,
    Duration maxWait) {

  /** Cycles of one uncontended block. */
  public static final int UNCONTENDED_BLOCK = 100;

  /** The full run: about two and a half minutes on two cores. */
  public static RedisPlan full() {
    return new RedisPlan(
        4,
        1500,
        Duration.ofSeconds(4),
        List.of(16, 64),
        1024,
        Duration.ofMillis(1500),
        8,
        Duration.ofMillis(2500),
        300,
        Duration.ofSeconds(5));
  }

  /** A smoke run of a few seconds per peer, to check the harness. */
  public static RedisPlan quick() {
    return new RedisPlan(
        1,
        200,
        Duration.ofSeconds(1),
        List.of(16, 64),
        1024,
        Duration.ofMillis(300),
        8,
        Duration.ofMillis(800),
        40,
        Duration.ofSeconds(5));
  }

  /** The unrecorded warm-up pass before the rounds (JIT, connection pools, scripts). */
  RedisPlan warmUp() {
    return new RedisPlan(
        1,
        Math.min(uncontendedCycles, 1000),
        uncontendedBudget,
        throughputThreads,
        throughputKeys,
        throughputWindow.dividedBy(2),
        handOffThreads,
        handOffWindow.dividedBy(3),
        maxHandOffs / 4,
        maxWait);
  }
}
