package io.hostloom.benchmarks.primitives;

import io.hostloom.benchmarks.Latency;
import java.util.Locale;

/** The markdown of the primitives section. */
final class PrimitivesReport {
  private PrimitivesReport() {}

  static String markdown(Primitives.Result r) {
    StringBuilder md = new StringBuilder();
    md.append("\n## Semaphores and reader-writer locks: Redis and ZooKeeper side by side\n\n");
    md.append("One `redis-server ")
        .append(r.redisVersion())
        .append("` and one ZooKeeper ")
        .append(r.zkVersion())
        .append(" (Curator TestingServer in this JVM), both on loopback, in one run (")
        .append("`--only=primitives`, also part of the full run). Per workload: a warm-up, then ")
        .append(r.plan().rounds())
        .append(" rounds; each round runs every peer's ")
        .append(r.plan().uncontendedCycles())
        .append(" uncontended cycles (one thread), then every peer's ")
        .append(r.plan().throughputBlock().toMillis())
        .append(" ms contended block, the peers' order rotated every round.\n\n");
    md.append("- **semaphore**: ")
        .append(Primitives.PERMITS)
        .append(" permits; a cycle is acquire 1 permit + release. Uncontended: one thread;")
        .append(" throughput: ")
        .append(Primitives.THREADS)
        .append(" threads over the ")
        .append(Primitives.PERMITS)
        .append(" permits, each waiting up to 5 s.\n");
    md.append("- **read-write**: a cycle is acquire + release of a read lock (")
        .append(100 - Primitives.WRITE_PERCENT)
        .append(" %) or a write lock (")
        .append(Primitives.WRITE_PERCENT)
        .append(" %) on one of ")
        .append(Primitives.RW_NAMES)
        .append(" names chosen at random, ")
        .append(Primitives.THREADS)
        .append(" threads, each waiting up to 5 s; uncontended: read cycles on one name.\n");
    md.append(
        "- **round trips / cycle**: Redis: the commands clients sent, counted with `MONITOR` in a"
            + " separate pass (50 uncontended cycles; one contended block of up to 1 s), never"
            + " while timing; ZooKeeper: the client's requests written with none in flight"
            + " (`CountingClientCnxnSocket`, counted during the timed blocks; pipelined requests"
            + " share one). Contended round trips include failed attempts and polling.\n\n");
    md.append(
        "| store | workload | peer | uncontended p50 µs | p99 µs | round trips / cycle"
            + " uncontended | throughput cycles/s | round trips / cycle contended | timeouts |\n");
    md.append("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (Primitives.Table t : r.tables()) {
      for (Primitives.Peer p : t.peers()) {
        Latency l = Latency.of(p.uncontended);
        md.append("| ")
            .append(t.store())
            .append(" | ")
            .append(t.workload())
            .append(" | ")
            .append(p.name)
            .append(" | ")
            .append(Primitives.fmt(l.p50()))
            .append(" | ")
            .append(Primitives.fmt(l.p99()))
            .append(" | ")
            .append(p.commands.isEmpty() ? rt(p.uncontendedRt) : p.commands)
            .append(" | ")
            .append(Primitives.fmt(p.throughput()))
            .append(" | ")
            .append(rt(p.contendedRt()))
            .append(" | ")
            .append(p.failures)
            .append(" |\n");
      }
    }
    md.append("\nConfiguration of each peer:\n\n");
    for (Primitives.Table t : r.tables()) {
      for (Primitives.Peer p : t.peers()) {
        md.append("- ")
            .append(t.store())
            .append(", ")
            .append(t.workload())
            .append(", ")
            .append(p.name)
            .append(": ")
            .append(p.config)
            .append('\n');
      }
    }
    md.append(
        "\nWhere the round trips come from (hostloom-locking README): HostLoom's semaphore on"
            + " Redis is native (`PermitLeases`): one sorted set of holders per semaphore, each"
            + " permit a kernel lease on one entry, one script per attempt whatever the slots'"
            + " state (a full semaphore is refused in 1), and a failed round waits on the"
            + " semaphore's one release channel (woken by a release, else the retry delay). On"
            + " ZooKeeper it is native too: one znode per semaphore holding every permit entry;"
            + " an operation is the clock write pipelined with a read of the znode, then one"
            + " version-conditioned write when it changes something (2 round trips per acquire"
            + " and per release, a refusal 1), and a failed round waits on the session's"
            + " persistent watch. Redisson's semaphores are one counter changed"
            + " by one script; Curator's InterProcessSemaphoreV2 takes an internal lock and"
            + " creates one ephemeral node per lease. HostLoom's reader-writer lock on Redis is"
            + " native (`ReadWriteLeases`): one sorted set of readers and one hash (readers' and"
            + " the writer's entries) per name, each read or write a kernel lease on one entry,"
            + " one script per acquire and one per release; a writer refused by readers is"
            + " recorded as waiting (no new reader gets in) and waiters wake on the name's one"
            + " release channel. On ZooKeeper it is native as well: one znode per name holding"
            + " the readers and the writer (holding or waiting), 2 round trips per acquire and per"
            + " release as for the semaphore, waiters woken by the persistent watch. Redisson's"
            + " RReadWriteLock is one script per acquire and one per release; Curator's is one"
            + " sequential node plus a children listing.\n\n");
    return md.toString();
  }

  private static String rt(double v) {
    if (Double.isNaN(v) || v == 0) {
      return "–";
    }
    return String.format(Locale.ROOT, "%.1f", v);
  }
}
