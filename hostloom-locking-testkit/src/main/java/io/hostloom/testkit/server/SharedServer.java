package io.hostloom.testkit.server;

import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The one server a test JVM shares: started on the first {@link #get()}, stopped by a shutdown hook
 * when the JVM exits. A launcher keeps one in a static field; tests that stop their server start
 * one of their own instead. Thread-safe.
 *
 * @param <T> the launcher's server type
 */
public final class SharedServer<T> {
  private final String name;
  private final Supplier<T> start;
  private final Consumer<T> stop;
  private T server;

  /**
   * @param name names the shutdown hook's thread, e.g. {@code etcd} ({@code etcd-stop})
   * @param start starts a new server and returns once it serves
   * @param stop stops it at the JVM's exit
   */
  public SharedServer(String name, Supplier<T> start, Consumer<T> stop) {
    this.name = Objects.requireNonNull(name, "name");
    this.start = Objects.requireNonNull(start, "start");
    this.stop = Objects.requireNonNull(stop, "stop");
  }

  /** The shared server, started by the first call. */
  public synchronized T get() {
    if (server == null) {
      T s = start.get();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> stop.accept(s), name + "-stop"));
      server = s;
    }
    return server;
  }
}
