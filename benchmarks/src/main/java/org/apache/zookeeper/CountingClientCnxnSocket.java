package org.apache.zookeeper;

import java.io.IOException;
import java.util.AbstractQueue;
import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.zookeeper.client.ZKClientConfig;

/**
 * The ZooKeeper client's NIO socket, counting what it writes to the server. Requests: every packet
 * that gets a reply (create, setData, getData, multi, ...), not the connect request, pings or auth.
 * Round trips: a request written with none in flight, or after a reply arrived, starts one;
 * requests written back to back with no reply between share it (pipelined). In ZooKeeper's package
 * because the socket's constructor and {@code doIO} are package-private; selected with the client
 * property {@code zookeeper.clientCnxnSocket}. Benchmarks only.
 *
 * <p>The packets the socket moves to the pending queue after writing them are exactly the requests,
 * and a reply takes its request off the queue, so the queue it is given is wrapped and its {@code
 * add} counted.
 */
public final class CountingClientCnxnSocket extends ClientCnxnSocketNIO {
  /** One client's counters. */
  public static final class Counts {
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong roundTrips = new AtomicLong();

    public long requests() {
      return requests.get();
    }

    public long roundTrips() {
      return roundTrips.get();
    }
  }

  private static final ThreadLocal<Counts> NEXT = new ThreadLocal<>();
  private static final Counts UNASSIGNED = new Counts();

  private final Counts counts;
  private Queue<ClientCnxn.Packet> seen;
  private Queue<ClientCnxn.Packet> counting;

  /** Called by the ZooKeeper client (reflectively) on the thread that builds the client. */
  public CountingClientCnxnSocket(ZKClientConfig config) throws IOException {
    super(config);
    Counts c = NEXT.get();
    this.counts = c == null ? UNASSIGNED : c;
  }

  /**
   * Runs {@code build} (which creates ZooKeeper clients on this thread) so that the clients it
   * creates count into {@code counts}.
   */
  public static <T> T countingInto(Counts counts, Callable<T> build) throws Exception {
    System.setProperty("zookeeper.clientCnxnSocket", CountingClientCnxnSocket.class.getName());
    NEXT.set(counts);
    try {
      return build.call();
    } finally {
      NEXT.remove();
    }
  }

  @Override
  void doIO(Queue<ClientCnxn.Packet> pendingQueue, ClientCnxn cnxn)
      throws InterruptedException, IOException {
    if (pendingQueue != seen) {
      seen = pendingQueue;
      counting = new Counting(pendingQueue, counts);
    }
    super.doIO(counting, cnxn);
  }

  /** Delegates to the real pending queue (under its monitor, as the client uses it) and counts. */
  private static final class Counting extends AbstractQueue<ClientCnxn.Packet> {
    private final Queue<ClientCnxn.Packet> real;
    private final Counts counts;
    private int sizeAfterLastAdd; // guarded by real

    Counting(Queue<ClientCnxn.Packet> real, Counts counts) {
      this.real = real;
      this.counts = counts;
    }

    @Override
    public boolean offer(ClientCnxn.Packet p) {
      synchronized (real) {
        counts.requests.incrementAndGet();
        int size = real.size();
        // replies leave the queue only when read: fewer than after the last add means one came
        if (size == 0 || size < sizeAfterLastAdd) {
          counts.roundTrips.incrementAndGet();
        }
        sizeAfterLastAdd = size + 1;
        return real.offer(p);
      }
    }

    @Override
    public ClientCnxn.Packet poll() {
      synchronized (real) {
        return real.poll();
      }
    }

    @Override
    public ClientCnxn.Packet peek() {
      synchronized (real) {
        return real.peek();
      }
    }

    @Override
    public Iterator<ClientCnxn.Packet> iterator() {
      return real.iterator();
    }

    @Override
    public int size() {
      synchronized (real) {
        return real.size();
      }
    }
  }
}
