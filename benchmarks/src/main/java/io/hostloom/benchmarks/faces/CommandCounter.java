package io.hostloom.benchmarks.faces;

import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the commands a Lettuce client sends (each one the caller waits for is one round trip on
 * the faces' single thread); {@code SCRIPT LOAD} and connection set-up are counted too, but happen
 * before the timed samples.
 */
final class CommandCounter implements CommandListener {
  private final AtomicLong commands = new AtomicLong();

  @Override
  public void commandStarted(CommandStartedEvent event) {
    commands.incrementAndGet();
  }

  long count() {
    return commands.get();
  }
}
