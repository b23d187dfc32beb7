package io.hostloom.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on a loopback port that forwards bytes to an upstream server and injects network
 * faults on command, for reliability tests (a Toxiproxy that needs no server): added latency,
 * stalled traffic (bytes held, not lost, until released), dropped connections and refused new
 * connections. Point a client at {@link #port()} instead of the server.
 *
 * <pre>{@code
 * try (TcpFaultProxy proxy = TcpFaultProxy.start("127.0.0.1", redisPort)) {
 *   RedisLockBackend backend = ...connect to 127.0.0.1:proxy.port()...;
 *   proxy.holdReplies();            // the server applies commands, the client hears nothing
 *   ...
 *   proxy.releaseReplies();         // held replies arrive, in order
 *   proxy.dropConnections();        // every open connection is reset
 *   proxy.refuseConnections();      // new connections are refused (ECONNREFUSED)
 *   proxy.acceptConnections();      // and accepted again, on the same port
 * }
 * }</pre>
 *
 * <p>Each connection has one forwarding pipe per {@link Direction}: a reader thread that reads
 * whatever arrives and stamps it with the latency in force at that moment, and a writer thread that
 * writes each chunk, in order, once it is due and its direction is not held. Holding never stops
 * the reading, so a held direction buffers in memory (tests hold for seconds, not for gigabytes). A
 * half-close (FIN) is forwarded once the bytes before it are written. Fault settings apply to every
 * connection, current and future.
 *
 * <p>Thread-safe. All threads are daemons. Faults are injected only between this process and the
 * loopback addresses it was given; nothing here reaches other hosts.
 */
public final class TcpFaultProxy implements AutoCloseable {
  /** Which way bytes flow. */
  public enum Direction {
    /** From the client to the upstream server (requests). */
    TO_UPSTREAM,
    /** From the upstream server to the client (replies). */
    TO_CLIENT
  }

  private static final int CHUNK = 64 * 1024;
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

  private final InetSocketAddress upstream;
  private final InetAddress bindAddress;
  private final int port;
  private final Object faults = new Object(); // guards the fields below; notified on change
  private final Map<Direction, Long> latencyNanos = new EnumMap<>(Direction.class);
  private final Map<Direction, Boolean> held = new EnumMap<>(Direction.class);
  private ServerSocket listener; // null while refusing
  private Thread acceptor; // the thread accepting on listener
  private boolean closed;

  private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
  private final AtomicLong accepted = new AtomicLong();
  private final Map<Direction, AtomicLong> forwarded = new EnumMap<>(Direction.class);

  private TcpFaultProxy(InetSocketAddress upstream, ServerSocket listener) {
    this.upstream = upstream;
    this.listener = listener;
    this.bindAddress = listener.getInetAddress();
    this.port = listener.getLocalPort();
    for (Direction d : Direction.values()) {
      latencyNanos.put(d, 0L);
      held.put(d, false);
      forwarded.put(d, new AtomicLong());
    }
  }

  /**
   * Starts a proxy on a free port of 127.0.0.1 forwarding to {@code upstreamHost:upstreamPort}.
   *
   * @throws UncheckedIOException when no port can be bound
   */
  public static TcpFaultProxy start(String upstreamHost, int upstreamPort) {
    return start(new InetSocketAddress(upstreamHost, upstreamPort));
  }

  /**
   * Starts a proxy on a free port of 127.0.0.1 forwarding to {@code upstream}.
   *
   * @throws UncheckedIOException when no port can be bound
   */
  public static TcpFaultProxy start(InetSocketAddress upstream) {
    Objects.requireNonNull(upstream, "upstream");
    try {
      ServerSocket listener = new ServerSocket();
      listener.setReuseAddress(true);
      listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      TcpFaultProxy proxy = new TcpFaultProxy(upstream, listener);
      proxy.startAccepting(listener);
      return proxy;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot bind a loopback port for the proxy", e);
    }
  }

  /** The host clients connect to ({@code 127.0.0.1}). */
  public String host() {
    return bindAddress.getHostAddress();
  }

  /** The port clients connect to; stays the same across {@link #refuseConnections()}. */
  public int port() {
    return port;
  }

  /** The upstream server. */
  public InetSocketAddress upstream() {
    return upstream;
  }

  /** Delays every chunk read from now on, in both directions, by {@code latency}. */
  public void setLatency(Duration latency) {
    for (Direction d : Direction.values()) {
      setLatency(d, latency);
    }
  }

  /**
   * Delays every chunk read from now on in {@code direction} by {@code latency} (zero for none).
   * Order is kept: a chunk never overtakes an earlier one.
   *
   * @throws IllegalArgumentException when {@code latency} is negative
   */
  public void setLatency(Direction direction, Duration latency) {
    Objects.requireNonNull(direction, "direction");
    if (latency.isNegative()) {
      throw new IllegalArgumentException("latency must not be negative but was " + latency);
    }
    synchronized (faults) {
      latencyNanos.put(direction, latency.toNanos());
      faults.notifyAll();
    }
  }

  /** Holds every byte flowing in {@code direction} (of current and new connections). */
  public void hold(Direction direction) {
    setHeld(direction, true);
  }

  /** Lets bytes held in {@code direction} flow again, in order. */
  public void release(Direction direction) {
    setHeld(direction, false);
  }

  /** Holds replies: the server gets and applies requests, the client hears nothing. */
  public void holdReplies() {
    hold(Direction.TO_CLIENT);
  }

  /** Delivers held replies and lets replies flow again. */
  public void releaseReplies() {
    release(Direction.TO_CLIENT);
  }

  /** Holds both directions: a silent partition that keeps connections open. */
  public void partition() {
    hold(Direction.TO_UPSTREAM);
    hold(Direction.TO_CLIENT);
  }

  /**
   * Resets every open connection (both sides see a connection reset; held bytes are lost).
   *
   * @return how many connections were dropped
   */
  public int dropConnections() {
    int n = 0;
    for (Connection c : connections) {
      c.abort();
      n++;
    }
    return n;
  }

  /**
   * Closes every open connection in an orderly way (both sides see end of stream, FIN, not a
   * reset); bytes held or not yet written are lost. A client that re-sends in-flight commands after
   * a reconnect (Lettuce's auto-reconnect) does so after this, not after a reset.
   *
   * @return how many connections were closed
   */
  public int closeConnections() {
    int n = 0;
    for (Connection c : connections) {
      c.closeNow();
      n++;
    }
    return n;
  }

  /**
   * Stops listening: new connections are refused ({@code ECONNREFUSED}) until {@link
   * #acceptConnections()}. Open connections are not touched. Idempotent.
   */
  public void refuseConnections() {
    Thread stopping;
    synchronized (faults) {
      if (listener == null) {
        return;
      }
      closeQuietly(listener);
      listener = null;
      stopping = acceptor;
    }
    // the kernel keeps accepting into the backlog until the blocked accept call has returned
    try {
      stopping.join(CONNECT_TIMEOUT.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Listens again on the same port after {@link #refuseConnections()}. Idempotent.
   *
   * @throws UncheckedIOException when the port cannot be bound again
   * @throws IllegalStateException when the proxy is closed
   */
  public void acceptConnections() {
    synchronized (faults) {
      if (closed) {
        throw new IllegalStateException("the proxy on port " + port + " is closed");
      }
      if (listener != null) {
        return;
      }
      try {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(bindAddress, port));
        listener = s;
        startAccepting(s);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot listen on port " + port + " again", e);
      }
    }
  }

  /** Removes every fault: no latency, nothing held, new connections accepted. */
  public void heal() {
    setLatency(Duration.ZERO);
    release(Direction.TO_UPSTREAM);
    release(Direction.TO_CLIENT);
    acceptConnections();
  }

  /** Connections currently open through the proxy. */
  public int openConnections() {
    return connections.size();
  }

  /** Connections accepted since the start. */
  public long acceptedConnections() {
    return accepted.get();
  }

  /** Bytes written in {@code direction} since the start. */
  public long bytesForwarded(Direction direction) {
    return forwarded.get(direction).get();
  }

  /** Stops listening and resets every open connection. Idempotent. */
  @Override
  public void close() {
    synchronized (faults) {
      closed = true;
      faults.notifyAll();
    }
    refuseConnections();
    dropConnections();
  }

  @Override
  public String toString() {
    return "TcpFaultProxy[" + host() + ":" + port + " -> " + upstream + "]";
  }

  private void setHeld(Direction direction, boolean value) {
    Objects.requireNonNull(direction, "direction");
    synchronized (faults) {
      held.put(direction, value);
      faults.notifyAll();
    }
  }

  private void startAccepting(ServerSocket s) {
    Thread t = daemon("accept-" + s.getLocalPort(), () -> acceptLoop(s));
    synchronized (faults) {
      acceptor = t;
    }
    t.start();
  }

  private void acceptLoop(ServerSocket s) {
    while (!s.isClosed()) {
      Socket client;
      try {
        client = s.accept();
      } catch (IOException e) {
        return; // closed by refuseConnections or close
      }
      accepted.incrementAndGet();
      Socket server = new Socket();
      try {
        client.setTcpNoDelay(true);
        server.setTcpNoDelay(true);
        server.connect(upstream, (int) CONNECT_TIMEOUT.toMillis());
      } catch (IOException e) {
        resetQuietly(client); // upstream down: the client sees its connection reset
        closeQuietly(server);
        continue;
      }
      new Connection(client, server).start();
    }
  }

  private static Thread daemon(String name, Runnable task) {
    Thread t = new Thread(task, "tcp-fault-proxy-" + name);
    t.setDaemon(true);
    return t;
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception ignored) {
      // nothing to do: tearing down
    }
  }

  private static void resetQuietly(Socket s) {
    try {
      s.setSoLinger(true, 0); // RST instead of FIN
    } catch (SocketException ignored) {
      // already closed
    }
    closeQuietly(s);
  }

  /** A chunk of bytes and when it may be written; {@code data == null} marks end of stream. */
  private static final class Chunk {
    final byte[] data;
    final long dueNanos;

    Chunk(byte[] data, long dueNanos) {
      this.data = data;
      this.dueNanos = dueNanos;
    }
  }

  private final class Connection {
    private final Socket client;
    private final Socket server;
    private volatile boolean aborted;
    private int pipesOpen = 2;

    Connection(Socket client, Socket server) {
      this.client = client;
      this.server = server;
    }

    void start() {
      connections.add(this);
      pipe(Direction.TO_UPSTREAM, client, server);
      pipe(Direction.TO_CLIENT, server, client);
    }

    private void pipe(Direction direction, Socket from, Socket to) {
      BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
      String name = direction.name().toLowerCase(java.util.Locale.ROOT) + "-" + port;
      daemon("read-" + name, () -> read(direction, from, queue)).start();
      daemon("write-" + name, () -> write(direction, to, queue)).start();
    }

    private void read(Direction direction, Socket from, BlockingQueue<Chunk> queue) {
      byte[] buf = new byte[CHUNK];
      try {
        InputStream in = from.getInputStream();
        int n;
        while ((n = in.read(buf)) >= 0) {
          queue.add(new Chunk(Arrays.copyOf(buf, n), System.nanoTime() + latency(direction)));
        }
        queue.add(new Chunk(null, System.nanoTime() + latency(direction)));
      } catch (IOException e) {
        abort();
        queue.add(new Chunk(null, 0));
      }
    }

    private void write(Direction direction, Socket to, BlockingQueue<Chunk> queue) {
      try {
        OutputStream out = to.getOutputStream();
        while (true) {
          Chunk c = queue.take();
          if (!awaitDue(direction, c.dueNanos)) {
            return;
          }
          if (c.data == null) {
            to.shutdownOutput(); // forward the half-close
            pipeDone();
            return;
          }
          out.write(c.data);
          out.flush();
          forwarded.get(direction).addAndGet(c.data.length);
        }
      } catch (IOException e) {
        abort();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        abort();
      }
    }

    /** Waits until the chunk is due and the direction not held; false when aborted. */
    private boolean awaitDue(Direction direction, long dueNanos) throws InterruptedException {
      synchronized (faults) {
        while (!aborted && !closed) {
          long wait = dueNanos - System.nanoTime();
          if (held.get(direction)) {
            faults.wait(100);
          } else if (wait > 0) {
            faults.wait(wait / 1_000_000, (int) (wait % 1_000_000));
          } else {
            return true;
          }
        }
        return false;
      }
    }

    private long latency(Direction direction) {
      synchronized (faults) {
        return latencyNanos.get(direction);
      }
    }

    private void pipeDone() {
      boolean last;
      synchronized (this) {
        last = --pipesOpen == 0;
      }
      if (last) {
        closeQuietly(client);
        closeQuietly(server);
        connections.remove(this);
      }
    }

    void closeNow() {
      aborted = true;
      closeQuietly(client);
      closeQuietly(server);
      connections.remove(this);
      synchronized (faults) {
        faults.notifyAll();
      }
    }

    void abort() {
      aborted = true;
      resetQuietly(client);
      resetQuietly(server);
      connections.remove(this);
      synchronized (faults) {
        faults.notifyAll();
      }
    }
  }
}
