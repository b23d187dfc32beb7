package io.hostloom.locking.spi.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class CallerWaitsTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private static final long HOUR = TimeUnit.HOURS.toNanos(1);

  @Test
  void anUnmarkedThreadIsNotWaiting() {
    assertThat(CallerWaits.allows(0)).isFalse();
  }

  @Test
  void anUnboundedWaitAllowsAnyCall() {
    long previous = CallerWaits.begin(CallerWaits.UNBOUNDED);
    try {
      assertThat(CallerWaits.allows(HOUR)).isTrue();
    } finally {
      CallerWaits.end(previous);
    }
    assertThat(CallerWaits.allows(0)).isFalse();
  }

  @Test
  void aBoundedWaitAllowsOnlyCallsThatFitInIt() {
    long previous = CallerWaits.begin(HOUR);
    try {
      assertThat(CallerWaits.allows(SECOND)).isTrue();
      assertThat(CallerWaits.allows(2 * HOUR)).isFalse();
    } finally {
      CallerWaits.end(previous);
    }
  }

  @Test
  void nestedMarksRestoreTheOuterOne() {
    long outer = CallerWaits.begin(CallerWaits.UNBOUNDED);
    try {
      long inner = CallerWaits.begin(SECOND);
      try {
        assertThat(CallerWaits.allows(HOUR)).isFalse();
      } finally {
        CallerWaits.end(inner);
      }
      assertThat(CallerWaits.allows(HOUR)).isTrue();
      long bounded = CallerWaits.begin(HOUR);
      try {
        long innermost = CallerWaits.begin(CallerWaits.UNBOUNDED);
        CallerWaits.end(innermost);
        assertThat(CallerWaits.allows(SECOND)).isTrue();
        assertThat(CallerWaits.allows(2 * HOUR)).isFalse(); // the bound came back
      } finally {
        CallerWaits.end(bounded);
      }
    } finally {
      CallerWaits.end(outer);
    }
    assertThat(CallerWaits.allows(0)).isFalse();
  }

  @Test
  void anInterruptedThreadIsNotAllowed() {
    long previous = CallerWaits.begin(CallerWaits.UNBOUNDED);
    try {
      Thread.currentThread().interrupt();
      assertThat(CallerWaits.allows(0)).isFalse();
    } finally {
      Thread.interrupted();
      CallerWaits.end(previous);
    }
  }

  @Test
  void theMarkIsPerThread() {
    long previous = CallerWaits.begin(CallerWaits.UNBOUNDED);
    try {
      assertThat(CompletableFuture.supplyAsync(() -> CallerWaits.allows(0)).join()).isFalse();
    } finally {
      CallerWaits.end(previous);
    }
  }
}
