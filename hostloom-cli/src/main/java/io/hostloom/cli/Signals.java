package io.hostloom.cli;

import java.util.List;
import java.util.function.Consumer;
import sun.misc.Signal;

/**
 * Catches SIGINT, SIGTERM and SIGHUP instead of letting them stop the JVM, so that hostloom can
 * pass them to its command and release the lock before it exits. Uses {@code sun.misc.Signal}
 * (module {@code jdk.unsupported}, present in every JDK since 9): the JDK has no other way to keep
 * a signal from starting the shutdown.
 */
final class Signals {
  /** The signals caught, by the names {@code kill -s} takes. */
  static final List<String> CAUGHT = List.of("INT", "TERM", "HUP");

  private Signals() {}

  /**
   * Sends every caught signal's name to {@code handler}, on a thread of the JVM's; a signal that
   * this platform cannot catch is skipped.
   */
  @SuppressWarnings("removal")
  static void install(Consumer<String> handler) {
    for (String name : CAUGHT) {
      try {
        Signal.handle(new Signal(name), s -> handler.accept(s.getName()));
      } catch (IllegalArgumentException e) {
        // not catchable here (e.g. HUP under nohup on some platforms): leave the default
      }
    }
  }

  /** The exit status of a process ended by {@code name}, as a shell reports it: 128 + number. */
  static int exitStatus(String name) {
    return switch (name) {
      case "HUP" -> 129;
      case "INT" -> 130;
      case "KILL" -> 137;
      default -> 143;
    };
  }
}
