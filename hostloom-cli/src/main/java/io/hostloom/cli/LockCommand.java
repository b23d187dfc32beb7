package io.hostloom.cli;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockInterruptedException;
import io.hostloom.locking.LockKey;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.LossReason;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hostloom lock NAME [options] -- COMMAND [ARGS...]}. */
@Command(
    name = "lock",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
      "Runs COMMAND while holding the distributed lock NAME, and releases it when COMMAND ends.",
      "The lease is extended while COMMAND runs. COMMAND gets HOSTLOOM_LOCK_NAME,"
          + " HOSTLOOM_FENCING_TOKEN (grows with every grant of NAME), HOSTLOOM_OWNER and"
          + " HOSTLOOM_NAMESPACE in its environment. Without --wait or --skip-if-busy it waits"
          + " as long as it takes.",
      "When the lease is lost, COMMAND gets SIGTERM, then SIGKILL after --grace, and hostloom"
          + " exits 76. SIGINT, SIGTERM and SIGHUP to hostloom are passed on to COMMAND and the"
          + " lock is released once it has exited. Otherwise COMMAND's own exit status is"
          + " hostloom's."
    },
    footer = {
      "",
      "Exit codes: COMMAND's own; 64 bad input; 69 backend unavailable; 75 busy (not run);"
          + " 76 lease lost; 126/127 COMMAND not executable/not found.",
      "Example: hostloom lock --backend redis://localhost:6379 nightly-backup --skip-if-busy"
          + " -- /usr/local/bin/backup.sh"
    })
final class LockCommand implements java.util.concurrent.Callable<Integer> {
  /** Waiting without --wait: retries this often, woken earlier by backends that signal releases. */
  static final Duration RETRY_INTERVAL = Duration.ofMillis(250);

  /** The kernel's max hold when --max-hold is not given: long enough to be no limit. */
  static final Duration NO_MAX_HOLD = Duration.ofDays(3650);

  @Spec CommandSpec spec;

  @Mixin BackendOptions where;

  @Parameters(index = "0", paramLabel = "NAME", description = "The lock's name (no whitespace).")
  String name;

  @Parameters(
      index = "1..*",
      paramLabel = "COMMAND",
      description = "The command and its arguments, after --.")
  List<String> command;

  @Mixin ChildOptions child;

  @Option(
      names = "--wait",
      paramLabel = "DURATION",
      converter = Durations.class,
      description = "Wait at most this long for the lock, then exit 75 (default: no limit).")
  Duration wait;

  @Option(
      names = "--skip-if-busy",
      description = "One attempt: exit 75 at once when another holder has the lock.")
  boolean skipIfBusy;

  @Option(
      names = "--lease",
      paramLabel = "DURATION",
      converter = Durations.class,
      defaultValue = "30s",
      description =
          "The lease, extended at half-time while COMMAND runs; how long the lock outlives a"
              + " crashed hostloom (default: ${DEFAULT-VALUE}).")
  Duration lease;

  @Option(
      names = "--min-hold",
      paramLabel = "DURATION",
      converter = Durations.class,
      description =
          "Keep the lock at least this long after the grant, also when COMMAND ends sooner (a job"
              + " that runs on several machines at once then runs once per period). hostloom"
              + " exits when COMMAND does; the lease on the backend runs out at the minimum.")
  Duration minHold;

  @Option(
      names = "--max-hold",
      paramLabel = "DURATION",
      converter = Durations.class,
      description =
          "Stop extending the lease this long after the grant; the lease then runs out and"
              + " COMMAND is stopped as on a lost lease (default: no limit).")
  Duration maxHold;

  @Option(
      names = {"-v", "--verbose"},
      description = "Say on stderr when the lock is busy and hostloom starts waiting.")
  boolean verbose;

  @Override
  public Integer call() {
    checkArguments();
    Map<String, String> env = System.getenv();
    String namespace = where.namespace(env);
    Supervisor supervisor = new Supervisor(child.grace, Thread.currentThread());
    PrintWriter err = spec.commandLine().getErr();
    try (OpenBackend backend = where.open(env);
        DistributedLock lock =
            DistributedLock.create(lockingOptions(namespace), backend.backend())) {
      Optional<LockHandle> granted;
      try {
        granted = acquire(lock, err);
      } catch (LockInterruptedException e) {
        return Signals.exitStatus(
            supervisor.caughtSignal() == null ? "TERM" : supervisor.caughtSignal());
      }
      if (granted.isEmpty()) {
        err.println("hostloom: lock '" + name + "' is busy");
        err.flush();
        return ExitCodes.BUSY;
      }
      try (LockHandle handle = granted.get()) {
        CompletableFuture<LossReason> lost = handle.lost();
        int status;
        try {
          status = supervisor.run(command, environment(handle, namespace), lost);
        } catch (ChildCommand.StartFailure e) {
          err.println("hostloom: " + e.getMessage());
          err.flush();
          return e.exitCode();
        }
        if (lost.isDone()) {
          err.println(
              "hostloom: lease of lock '"
                  + name
                  + "' lost ("
                  + lost.join().tagValue()
                  + "); the command was stopped");
          err.flush();
          return ExitCodes.LEASE_LOST;
        }
        return status;
      }
    }
  }

  private void checkArguments() {
    ChildOptions.required(command, "hostloom lock NAME [options] -- COMMAND [ARGS...]");
    try {
      LockKey.validate(name);
    } catch (IllegalArgumentException e) {
      throw new UsageException("bad lock NAME: " + e.getMessage(), e);
    }
    if (skipIfBusy && wait != null) {
      throw new UsageException("--skip-if-busy and --wait exclude each other");
    }
    if (lease.isZero()) {
      throw new UsageException("--lease must be positive but was " + lease);
    }
    if (maxHold != null && maxHold.isZero()) {
      throw new UsageException("--max-hold must be positive but was " + maxHold);
    }
  }

  private LockingOptions lockingOptions(String namespace) {
    return LockingOptions.builder()
        .namespace(namespace)
        .defaultLease(lease)
        .maxLease(minHold != null && minHold.compareTo(lease) > 0 ? minHold : lease)
        .maxHold(maxHold != null ? maxHold : NO_MAX_HOLD)
        .autoExtend(true)
        .build();
  }

  private Optional<LockHandle> acquire(DistributedLock lock, PrintWriter err) {
    if (!verbose || skipIfBusy) {
      return lock.tryAcquire(name, lockOptions());
    }
    Optional<LockHandle> first =
        lock.tryAcquire(name, lockOptions().toBuilder().maxWait(Duration.ZERO).build());
    if (first.isPresent()) {
      return first;
    }
    err.println(
        "hostloom: lock '"
            + name
            + "' is busy, waiting"
            + (wait == null ? "" : " up to " + Durations.format(wait)));
    err.flush();
    return lock.tryAcquire(name, lockOptions());
  }

  private LockOptions lockOptions() {
    LockOptions.Builder b = LockOptions.builder().lease(lease).autoExtend(true);
    if (minHold != null) {
      // the kernel keeps the lease to the minimum when the handle closes earlier (on the backend)
      b.minimumHold(minHold);
    }
    if (skipIfBusy) {
      return b.maxWait(Duration.ZERO).build();
    }
    b.retry(LockRetryPolicy.interval(Integer.MAX_VALUE, RETRY_INTERVAL));
    if (wait != null) {
      b.maxWait(wait);
    }
    return b.build();
  }

  private Map<String, String> environment(LockHandle handle, String namespace) {
    return Map.of(
        "HOSTLOOM_LOCK_NAME",
        name,
        "HOSTLOOM_FENCING_TOKEN",
        Long.toString(handle.fencingToken()),
        "HOSTLOOM_OWNER",
        child.owner(),
        "HOSTLOOM_NAMESPACE",
        namespace);
  }
}
