package io.hostloom.redis;

/**
 * Public access to the Redis module's {@code RedisServerProcess} test fixture (package-private
 * there, published in its test-jar), so other modules' tests (the reliability scenarios, the
 * ShedLock provider, the WOPI host's two-instance test) reuse it instead of copying it. Lives in
 * the fixture's package for that reason only.
 */
public final class RedisTestServer implements AutoCloseable {
  private final RedisServerProcess server;

  private RedisTestServer(RedisServerProcess server) {
    this.server = server;
  }

  /**
   * A new {@code redis-server} without persistence on a free loopback port; the caller closes it.
   *
   * @throws IllegalStateException with an install hint when no binary is found or it cannot start
   */
  public static RedisTestServer startNew() {
    return new RedisTestServer(RedisServerProcess.startNew());
  }

  public String uri() {
    return server.uri();
  }

  public int port() {
    return server.port();
  }

  /** Starts the server again on the same port after {@link #kill()} or {@link #stop()}. */
  public void start() {
    server.start();
  }

  /** SIGKILL: the server vanishes with its (unpersisted) data. */
  public void kill() {
    server.kill();
  }

  /** SIGTERM: the server closes its connections and exits. */
  public void stop() {
    server.stop();
  }

  /** Sends one command and returns the raw reply. */
  public String command(String... words) {
    return server.command(words);
  }

  /** Keys stored on the server ({@code DBSIZE}). */
  public long keyCount() {
    String reply = server.command("DBSIZE").trim();
    return Long.parseLong(reply.startsWith(":") ? reply.substring(1) : reply);
  }

  @Override
  public void close() {
    server.close();
  }
}
