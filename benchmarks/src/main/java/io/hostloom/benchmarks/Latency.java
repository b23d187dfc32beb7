package io.hostloom.benchmarks;

import org.HdrHistogram.Histogram;

/**
 * Percentiles of a latency histogram recorded in nanoseconds, in microseconds.
 *
 * @param count samples
 * @param p50 median, µs
 * @param p99 99th percentile, µs
 * @param mean mean, µs
 * @param max maximum, µs
 */
public record Latency(long count, double p50, double p99, double mean, double max) {

  /** A histogram for nanosecond samples up to one minute, 3 significant digits. */
  public static Histogram newHistogram() {
    return new Histogram(60_000_000_000L, 3);
  }

  public static Latency of(Histogram h) {
    if (h.getTotalCount() == 0) {
      return new Latency(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }
    return new Latency(
        h.getTotalCount(),
        h.getValueAtPercentile(50) / 1e3,
        h.getValueAtPercentile(99) / 1e3,
        h.getMean() / 1e3,
        h.getMaxValue() / 1e3);
  }
}
