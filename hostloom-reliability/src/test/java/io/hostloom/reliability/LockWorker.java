package io.hostloom.reliability;

import io.hostloom.leadership.ChangeType;
import io.hostloom.leadership.LeaderElector;
import io.hostloom.leadership.Leadership;
import io.hostloom.leadership.LeadershipChange;
import io.hostloom.leadership.LeadershipListener;
import io.hostloom.leadership.LeadershipOptions;
import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockBackendUnavailableException;
import io.hostloom.locking.LockEventListener;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.OnLost;
import io.hostloom.locking.rwlock.DistributedReadWriteLock;
import io.hostloom.locking.rwlock.ReadWriteHandle;
import io.hostloom.locking.semaphore.DistributedSemaphore;
import io.hostloom.locking.semaphore.DistributedSemaphores;
import io.hostloom.locking.semaphore.Permit;
import io.hostloom.locking.semaphore.Permits;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.scheduling.ExclusiveScheduler;
import io.hostloom.scheduling.RunResult;
import io.hostloom.scheduling.ScheduleGuard;
import io.hostloom.scheduling.ScheduleHandle;
import io.hostloom.scheduling.ScheduleListener;
import io.hostloom.scheduling.ScheduleOptions;
import io.hostloom.scheduling.ScheduleTrigger;
import io.hostloom.testkit.LockHistory;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileLockInterruptionException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A lock client in a JVM of its own, started by {@link WorkerProcess} for the multi-process
 * scenarios. It builds a {@link DistributedLock} over a real backend through a {@link
 * RecordingBackend} that appends every hold to this process's ledger file, then runs one mode:
 *
 * <ul>
 *   <li>{@code contend}: {@code threads} threads loop acquire, write the fenced resource, pause up
 *       to {@code hold}, write again, release, on random keys of {@code keys}; half of them through
 *       {@code runWithLock}, half through {@code tryAcquire} and {@code close}. Stops after {@code
 *       grants} grants, after {@code duration}, or when told to.
 *   <li>{@code hold}: acquires the first key and keeps it (no extension) until killed or told to
 *       stop; prints {@code @HOLDING key token}.
 *   <li>{@code fenced}: holds the first key through {@code runWithLock} with {@code autoExtend} and
 *       {@code onLost}, writing its fencing token to the resource (record {@code resourceKey})
 *       every {@code writeEvery}; prints {@code @WRITE token accepted sent-nanos}, {@code @LOST
 *       reason nanos}, {@code @INTERRUPTED nanos}.
 *   <li>{@code schedule}: runs the schedule named by the first key through a {@link ScheduleGuard}
 *       and an {@link ExclusiveScheduler} every {@code period} (epoch-aligned, so every worker has
 *       the same occurrences) with {@code lease}, {@code minimumHold}, {@code maxLateness} and
 *       {@code autoExtend}; each run prints {@code @RAN occurrence-epoch-nanos token nanos} and
 *       lasts {@code hold}.
 *   <li>{@code elect}: a {@link LeaderElector} for {@code role} (lease {@code lease}, {@code
 *       renewInterval}, {@code retryInterval}, {@code jitter}); prints {@code @CHANGE type term
 *       nanos detail} for every change; while it leads, writes its term to the resource (record
 *       {@code role}) every {@code writeEvery} ({@code @WRITE term accepted sentNanos}); on {@code
 *       LOST} it makes one more write with the ended term, as work already under way would
 *       ({@code @LATEWRITE term accepted nanos}). Stopping stops the elector (graceful hand-over).
 *   <li>{@code primitives}: two threads, one looping over {@code permits}-permit semaphore {@code
 *       pool} (one permit per grant) and one over reader-writer lock {@code rw} (every third grant
 *       a write), each grant held {@code hold} with no extension while writing its fencing token to
 *       the resource every {@code writeEvery} (semaphore record {@code pool-<slot>}, per-slot
 *       fencing; write record {@code rw}; readers write nothing), the last write after the hold's
 *       final pause, so a holder resumed from {@code SIGSTOP} writes once more with its old token.
 *       Prints {@code @SGRANT slot token sent-nanos seen-nanos}, {@code @SWRITE slot token accepted
 *       sent-nanos}, {@code @SEXIT slot token nanos}, and {@code @RGRANT W|R token sent-nanos
 *       seen-nanos}, {@code @RWRITE token accepted sent-nanos}, {@code @REXIT W|R token nanos}.
 * </ul>
 *
 * <p>Arguments are {@code name=value} pairs. Control comes on stdin: a line {@code GO} starts a
 * worker started with {@code waitForGo=true}; end of input (the test closed it, or the test JVM
 * died) stops it. Every run is bounded by {@code duration} (counted from {@code GO} when it waits
 * for one) plus a grace period, after which the process halts itself. Reports go to stdout as lines
 * starting with {@code @}; times are {@link System#nanoTime()}, comparable with the test JVM's on
 * the same host.
 */
public final class LockWorker {
  private static final Duration GRACE = Duration.ofSeconds(60);

  private final Map<String, String> args;
  private final String id;

  /** How long a worker may wait for {@code GO}; its {@code duration} counts from then. */
  private static final Duration STARTUP = Duration.ofMinutes(2);

  private volatile long deadline; // moves once, at GO
  private final CountDownLatch go = new CountDownLatch(1);
  private volatile boolean stop;

  private final AtomicLong grants = new AtomicLong();
  private final AtomicLong busy = new AtomicLong();
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong rejected = new AtomicLong();
  private final AtomicLong lost = new AtomicLong();
  private final Map<LockFailureKind, AtomicLong> failures = new EnumMap<>(LockFailureKind.class);

  private LockWorker(Map<String, String> args) {
    this.args = args;
    this.id = arg("id");
    this.deadline = System.nanoTime() + STARTUP.toNanos() + duration("duration").toNanos();
    for (LockFailureKind k : LockFailureKind.values()) {
      failures.put(k, new AtomicLong());
    }
  }

  public static void main(String[] argv) {
    Map<String, String> args = new LinkedHashMap<>();
    for (String a : argv) {
      int eq = a.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("arguments are name=value pairs but got " + a);
      }
      args.put(a.substring(0, eq), a.substring(eq + 1));
    }
    int status = 0;
    try {
      new LockWorker(args).run();
    } catch (Throwable t) {
      out("@ERROR " + t);
      t.printStackTrace();
      status = 1;
    }
    System.out.flush();
    Runtime.getRuntime().halt(status); // no lingering non-daemon client threads
  }

  private void run() throws Exception {
    startControl();
    BackendSpec spec = BackendSpec.from(args);
    BackendClient client = spec.open();
    LockBackend backend = client.backend();
    try (LockHistory history = LockHistory.appendingTo(Path.of(arg("ledger")));
        FencedResource resource = FencedResource.open(arg("resource"))) {
      RecordingBackend recording = new RecordingBackend(backend, history, id);
      LockingOptions options =
          LockingOptions.builder().namespace(args.getOrDefault("namespace", "rel")).build();
      try (DistributedLock lock =
          DistributedLock.builder(options, recording).listener(lossCounter()).build()) {
        warmUp(lock);
        out("@READY " + ProcessHandle.current().pid());
        if (Boolean.parseBoolean(args.getOrDefault("waitForGo", "false"))) {
          if (!go.await(STARTUP.toNanos(), TimeUnit.NANOSECONDS)) {
            throw new IllegalStateException("no GO within " + STARTUP);
          }
          deadline = System.nanoTime() + duration("duration").toNanos();
        }
        switch (arg("mode")) {
          case "contend" -> contend(lock, resource);
          case "hold" -> hold(lock);
          case "fenced" -> fenced(lock, resource);
          case "schedule" -> schedule(lock);
          case "elect" -> elect(lock, resource);
          case "primitives" -> primitives(recording, options, resource);
          default -> throw new IllegalArgumentException("unknown mode " + arg("mode"));
        }
      }
      out(
          "@STATS grants="
              + grants
              + " busy="
              + busy
              + " unavailable="
              + failures.get(LockFailureKind.UNAVAILABLE)
              + " timeout="
              + failures.get(LockFailureKind.TIMEOUT)
              + " other="
              + failures.get(LockFailureKind.OTHER)
              + " calls="
              + recording.calls()
              + " accepted="
              + accepted
              + " rejected="
              + rejected
              + " lost="
              + lost);
    } finally {
      client.close();
    }
    out("@DONE");
  }

  private void contend(DistributedLock lock, FencedResource resource) throws InterruptedException {
    List<String> keys = List.of(arg("keys").split(",", -1));
    int threads = Integer.parseInt(arg("threads"));
    long target = Long.parseLong(arg("grants"));
    long holdNanos = duration("hold").toNanos();
    LockOptions opts = options(false, OnLost.OBSERVE);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      boolean viaTry = t % 2 == 1;
      Thread th =
          new Thread(
              () -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                while (!stop && grants.get() < target && System.nanoTime() - deadline < 0) {
                  String key = keys.get(rnd.nextInt(keys.size()));
                  long pause = holdNanos == 0 ? 0 : rnd.nextLong(holdNanos + 1);
                  try {
                    if (viaTry) {
                      Optional<LockHandle> h = lock.tryAcquire(key, opts);
                      if (h.isEmpty()) {
                        busy.incrementAndGet();
                        continue;
                      }
                      try (LockHandle held = h.get()) {
                        touch(resource, key, held.fencingToken(), pause);
                      }
                    } else {
                      lock.runWithLock(
                          key, opts, held -> touch(resource, key, held.fencingToken(), pause));
                    }
                    grants.incrementAndGet();
                  } catch (LockNotAcquiredException e) {
                    busy.incrementAndGet();
                  } catch (LockBackendUnavailableException e) {
                    if (failures.get(e.kind()).incrementAndGet() <= 3) {
                      out("@FAILURE " + e.kind() + " " + e.getMessage() + " / " + e.getCause());
                    }
                    LockSupport.parkNanos(
                        Duration.ofMillis(10).toNanos()); // backend down: back off
                  }
                }
              },
              id + "-t" + t);
      th.start();
      workers.add(th);
    }
    for (Thread th : workers) {
      th.join();
    }
  }

  /**
   * Connects and loads whatever the client loads lazily (scripts, statements, classes) before the
   * scenario starts, so a cold first call is not mistaken for a slow backend.
   */
  private void warmUp(DistributedLock lock) {
    LockOptions patient =
        LockOptions.builder()
            .lease(Duration.ofSeconds(30))
            .maxWait(Duration.ofSeconds(30))
            .retry(LockRetryPolicy.interval(1000, Duration.ofMillis(20)))
            .build();
    long giveUp = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    for (int done = 0; done < 3; ) {
      try (LockHandle h = lock.acquire("warm-up-" + id, patient)) {
        h.extend(Duration.ofSeconds(30));
        done++;
      } catch (LockBackendUnavailableException e) {
        if (System.nanoTime() - giveUp > 0) {
          throw e;
        }
        LockSupport.parkNanos(Duration.ofMillis(100).toNanos()); // a cold pool's first connect
      }
    }
  }

  private void touch(FencedResource resource, String key, long token, long pauseNanos) {
    write(resource, key, token);
    if (pauseNanos > 0) {
      LockSupport.parkNanos(pauseNanos);
    }
    write(resource, key, token);
  }

  private void write(FencedResource resource, String key, long token) {
    boolean ok = resource.write(key, token, token);
    count(ok);
    if (!ok && rejected.get() <= 20) {
      out("@REJECTED " + key + " " + token + " " + resource.fence(key) + " " + System.nanoTime());
    }
  }

  private void count(boolean written) {
    (written ? accepted : rejected).incrementAndGet();
  }

  private void hold(DistributedLock lock) {
    String key = arg("keys").split(",", -1)[0];
    try (LockHandle h = lock.acquire(key, options(false, OnLost.OBSERVE))) {
      grants.incrementAndGet();
      out("@HOLDING " + key + " " + h.fencingToken() + " " + System.nanoTime());
      while (!stop && System.nanoTime() - deadline < 0) {
        LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
      }
    }
  }

  private void fenced(DistributedLock lock, FencedResource resource) {
    String key = arg("keys").split(",", -1)[0];
    String resourceKey = args.getOrDefault("resourceKey", key);
    long every = duration("writeEvery").toNanos();
    OnLost onLost = OnLost.valueOf(arg("onLost"));
    boolean autoExtend = Boolean.parseBoolean(arg("autoExtend"));
    lock.runWithLock(
        key,
        options(autoExtend, onLost),
        h -> {
          grants.incrementAndGet();
          long token = h.fencingToken();
          var unused = h.lost().thenAccept(r -> out("@LOST " + r + " " + System.nanoTime()));
          out("@FENCED " + key + " " + token);
          long n = 0;
          while (!stop && System.nanoTime() - deadline < 0) {
            try {
              // stamped before sending: a write sent before a SIGSTOP and answered after SIGCONT
              // was applied before the pause and is not a write "after resuming"
              long sent = System.nanoTime();
              boolean ok = resource.write(resourceKey, token, ++n);
              count(ok);
              out("@WRITE " + token + " " + ok + " " + sent);
              TimeUnit.NANOSECONDS.sleep(every);
            } catch (InterruptedException e) {
              interrupted();
              return;
            } catch (UncheckedIOException e) {
              if (e.getCause() instanceof ClosedByInterruptException
                  || e.getCause() instanceof FileLockInterruptionException) {
                interrupted();
                return;
              }
              throw e;
            }
          }
        });
  }

  private void schedule(DistributedLock lock) throws InterruptedException {
    String name = arg("keys").split(",", -1)[0];
    long holdNanos = duration("hold").toNanos();
    ScheduleOptions options =
        ScheduleOptions.builder(name)
            .lease(duration("lease"))
            .minimumHold(duration("minimumHold"))
            .maxLateness(duration("maxLateness"))
            .autoExtend(Boolean.parseBoolean(arg("autoExtend")))
            .build();
    ScheduleGuard guard =
        ScheduleGuard.builder(lock, options)
            .listener(
                new ScheduleListener() {
                  @Override
                  public void runFinished(RunResult r) {
                    switch (r.outcome()) {
                      case SKIPPED -> busy.incrementAndGet();
                      case GUARD_FAILED -> failures.get(LockFailureKind.OTHER).incrementAndGet();
                      default -> grants.incrementAndGet();
                    }
                  }
                })
            .build();
    ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
    try {
      ScheduleHandle handle =
          ExclusiveScheduler.on(executor)
              .schedule(
                  guard,
                  ScheduleTrigger.fixedRateAligned(duration("period")),
                  claim -> {
                    Instant due = claim.occurrence();
                    long epochNanos = due.getEpochSecond() * 1_000_000_000L + due.getNano();
                    out(
                        "@RAN "
                            + epochNanos
                            + " "
                            + claim.fencingToken()
                            + " "
                            + System.nanoTime());
                    if (holdNanos > 0) {
                      TimeUnit.NANOSECONDS.sleep(holdNanos);
                    }
                  });
      while (!stop && System.nanoTime() - deadline < 0) {
        LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
      }
      handle.cancel();
    } finally {
      executor.shutdownNow();
      executor.awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  private void elect(DistributedLock lock, FencedResource resource) {
    String role = arg("role");
    LeadershipOptions options =
        LeadershipOptions.builder()
            .lease(duration("lease"))
            .renewInterval(duration("renewInterval"))
            .retryInterval(duration("retryInterval"))
            .jitter(duration("jitter"))
            .build();
    long every = duration("writeEvery").toNanos();
    LeadershipListener report =
        new LeadershipListener() {
          @Override
          public void onChange(LeadershipChange c) {
            out(
                "@CHANGE "
                    + c.type()
                    + " "
                    + c.term()
                    + " "
                    + System.nanoTime()
                    + " "
                    + (c.detail().isEmpty() ? "-" : c.detail()));
            if (c.type() == ChangeType.ACQUIRED) {
              grants.incrementAndGet();
            } else if (c.type() == ChangeType.LOST) {
              boolean ok = resource.write(role, c.term(), -1);
              count(ok);
              out("@LATEWRITE " + c.term() + " " + ok + " " + System.nanoTime());
            }
          }
        };
    try (LeaderElector elector =
        LeaderElector.builder(lock, role).options(options).listener(report).build()) {
      elector.start();
      long n = 0;
      while (!stop && System.nanoTime() - deadline < 0) {
        Optional<Leadership> term = elector.leadership();
        if (term.isPresent()) {
          long sentAt = System.nanoTime(); // as in fenced mode: the time the write was sent
          boolean ok = resource.write(role, term.get().term(), ++n);
          count(ok);
          out("@WRITE " + term.get().term() + " " + ok + " " + sentAt);
        }
        LockSupport.parkNanos(every);
      }
    }
  }

  private void primitives(LockBackend backend, LockingOptions options, FencedResource resource)
      throws InterruptedException {
    int permits = Integer.parseInt(arg("permits"));
    LockOptions opts = options(false, OnLost.OBSERVE);
    long hold = duration("hold").toNanos();
    long every = duration("writeEvery").toNanos();
    try (DistributedSemaphores semaphores = DistributedSemaphores.create(options, backend);
        DistributedReadWriteLock rw = DistributedReadWriteLock.create(options, backend)) {
      DistributedSemaphore pool = semaphores.semaphore("pool", permits);
      Thread sem =
          new Thread(
              () ->
                  primitiveLoop(
                      () -> {
                        long sent = System.nanoTime();
                        Permits p = pool.acquire(1, opts);
                        Permit permit = p.permits().get(0);
                        String slot = Integer.toString(permit.slot());
                        long token = permit.fencingToken();
                        out("@SGRANT " + slot + " " + token + " " + sent + " " + System.nanoTime());
                        try (p) {
                          holdAndWrite(
                              resource, "pool-" + slot, token, hold, every, "@SWRITE " + slot);
                          out("@SEXIT " + slot + " " + token + " " + System.nanoTime());
                        }
                      }),
              id + "-semaphore");
      Thread rwt =
          new Thread(
              () -> {
                long[] n = {0};
                primitiveLoop(
                    () -> {
                      boolean write = n[0]++ % 3 == 0;
                      long sent = System.nanoTime();
                      ReadWriteHandle h =
                          write ? rw.acquireWrite("rw", opts) : rw.acquireRead("rw", opts);
                      String mode = write ? "W" : "R";
                      long token = h.fencingToken();
                      out("@RGRANT " + mode + " " + token + " " + sent + " " + System.nanoTime());
                      try (h) {
                        if (write) {
                          holdAndWrite(resource, "rw", token, hold, every, "@RWRITE");
                        } else {
                          LockSupport.parkNanos(hold);
                        }
                        out("@REXIT " + mode + " " + token + " " + System.nanoTime());
                      }
                    });
              },
              id + "-rwlock");
      sem.start();
      rwt.start();
      sem.join();
      rwt.join();
    }
  }

  /** Runs {@code grant} until stopped, counting outcomes; a backend failure backs off briefly. */
  private void primitiveLoop(Runnable grant) {
    while (!stop && System.nanoTime() - deadline < 0) {
      try {
        grant.run();
        grants.incrementAndGet();
      } catch (LockNotAcquiredException e) {
        busy.incrementAndGet();
      } catch (LockBackendUnavailableException e) {
        failures.get(e.kind()).incrementAndGet();
        LockSupport.parkNanos(Duration.ofMillis(20).toNanos()); // backend down: back off
      }
    }
  }

  /**
   * Writes {@code token} every {@code every} for {@code hold}; the last write comes after the last
   * pause, so a holder frozen in that pause writes once more when it resumes.
   */
  private void holdAndWrite(
      FencedResource resource, String key, long token, long hold, long every, String tag) {
    long end = System.nanoTime() + hold;
    long n = 0;
    while (true) {
      long sent = System.nanoTime();
      boolean ok = resource.write(key, token, ++n);
      count(ok);
      out(tag + " " + token + " " + ok + " " + sent);
      if (sent - end >= 0) {
        return;
      }
      LockSupport.parkNanos(every);
    }
  }

  private static void interrupted() {
    out("@INTERRUPTED " + System.nanoTime());
  }

  private LockOptions options(boolean autoExtend, OnLost onLost) {
    Duration step = duration("retryStep");
    return LockOptions.builder()
        .lease(duration("lease"))
        .maxWait(duration("maxWait"))
        .retry(LockRetryPolicy.interval(100_000, step).withJitter(step))
        .autoExtend(autoExtend)
        .onLost(onLost)
        .build();
  }

  private LockEventListener lossCounter() {
    return new LockEventListener() {
      @Override
      public void leaseLost(LeaseLost event) {
        lost.incrementAndGet();
      }
    };
  }

  /** Reads stdin: {@code GO} starts, end of input stops; halts the process after the deadline. */
  private void startControl() {
    Thread control =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                  if (line.trim().equals("GO")) {
                    go.countDown();
                  }
                }
              } catch (IOException e) {
                // treated as end of input
              }
              stop = true;
              go.countDown();
            },
            id + "-control");
    control.setDaemon(true);
    control.start();
    Thread watchdog =
        new Thread(
            () -> {
              long end;
              while ((end = deadline + GRACE.toNanos()) - System.nanoTime() > 0) {
                LockSupport.parkNanos(end - System.nanoTime()); // may return early; GO moves it
              }
              out("@ERROR worker " + id + " overran its deadline; halting");
              Runtime.getRuntime().halt(2);
            },
            id + "-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
  }

  private String arg(String name) {
    String v = args.get(name);
    if (v == null) {
      throw new IllegalArgumentException("missing argument " + name);
    }
    return v;
  }

  private Duration duration(String name) {
    return Duration.parse(arg(name));
  }

  private static void out(String line) {
    synchronized (System.out) {
      System.out.println(line);
      System.out.flush();
    }
  }
}
