package io.hostloom.cli;

import io.hostloom.leadership.LeaderElector;
import io.hostloom.leadership.Leadership;
import io.hostloom.leadership.LeadershipOptions;
import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockKey;
import io.hostloom.locking.LockingOptions;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hostloom leader ROLE [options] -- COMMAND [ARGS...]}. */
@Command(
    name = "leader",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
      "Runs COMMAND while this process is the leader of ROLE (the holder of the lock"
          + " leader:ROLE), with HOSTLOOM_ROLE, HOSTLOOM_FENCING_TOKEN (the term: grows with every"
          + " term, on every instance), HOSTLOOM_OWNER and HOSTLOOM_NAMESPACE in its environment.",
      "When the leadership ends, COMMAND gets SIGTERM, then SIGKILL after --grace, and hostloom"
          + " waits for the next term (with --once it exits 76 instead). When COMMAND exits on its"
          + " own, hostloom hands the leadership over and exits with COMMAND's status. SIGINT,"
          + " SIGTERM and SIGHUP are passed on to COMMAND and the leadership released."
    },
    footer = {
      "",
      "Exit codes: COMMAND's own; 64 bad input; 69 backend unavailable; 76 leadership lost"
          + " (--once); 126/127 COMMAND not executable/not found.",
      "Example: hostloom leader --backend etcd://localhost:2379 billing -- java -jar billing.jar"
    })
final class LeaderCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin BackendOptions where;

  @Parameters(index = "0", paramLabel = "ROLE", description = "The role's name (no whitespace).")
  String role;

  @Parameters(
      index = "1..*",
      paramLabel = "COMMAND",
      description = "The command and its arguments, after --.")
  List<String> command;

  @Mixin ChildOptions child;

  @Option(
      names = "--lease",
      paramLabel = "DURATION",
      converter = Durations.class,
      defaultValue = "15s",
      description =
          "The leader's lease, renewed every third of it; how long a crashed leader blocks the"
              + " next one (default: ${DEFAULT-VALUE}).")
  Duration lease;

  @Option(
      names = "--retry",
      paramLabel = "DURATION",
      converter = Durations.class,
      defaultValue = "2s",
      description = "How often a follower tries to become leader (default: ${DEFAULT-VALUE}).")
  Duration retry;

  @Option(names = "--once", description = "Run one term only: exit 76 when it is lost.")
  boolean once;

  @Override
  public Integer call() {
    LeadershipOptions options = checkArguments();
    Map<String, String> env = System.getenv();
    String namespace = where.namespace(env);
    Supervisor supervisor = new Supervisor(child.grace, Thread.currentThread());
    PrintWriter err = spec.commandLine().getErr();
    String who = child.owner();
    LockingOptions locking =
        LockingOptions.builder().namespace(namespace).defaultLease(lease).maxLease(lease).build();
    try (OpenBackend backend = where.open(env);
        DistributedLock lock = DistributedLock.create(locking, backend.backend());
        LeaderElector elector = LeaderElector.builder(lock, role).options(options).build()) {
      elector.start();
      while (true) {
        Leadership term;
        try {
          term = elector.awaitLeadershipAsync().get();
        } catch (InterruptedException e) {
          elector.stop();
          return Signals.exitStatus(caught(supervisor));
        } catch (ExecutionException e) {
          throw new IllegalStateException("the elector stopped", e.getCause());
        }
        Map<String, String> childEnv =
            Map.of(
                "HOSTLOOM_ROLE", role,
                "HOSTLOOM_FENCING_TOKEN", Long.toString(term.term()),
                "HOSTLOOM_OWNER", who,
                "HOSTLOOM_NAMESPACE", namespace);
        int status;
        try {
          status = supervisor.run(command, childEnv, term.ended());
        } catch (ChildCommand.StartFailure e) {
          err.println("hostloom: " + e.getMessage());
          err.flush();
          elector.stop();
          return e.exitCode();
        }
        if (supervisor.caughtSignal() != null || term.isCurrent()) {
          elector.stop(); // releases, so another instance can lead at once
          return status;
        }
        err.println(
            "hostloom: leadership of '"
                + role
                + "' (term "
                + term.term()
                + ") ended; the command was stopped");
        err.flush();
        if (once) {
          elector.stop();
          return ExitCodes.LEASE_LOST;
        }
      }
    }
  }

  private static String caught(Supervisor supervisor) {
    String s = supervisor.caughtSignal();
    return s == null ? "TERM" : s;
  }

  private LeadershipOptions checkArguments() {
    ChildOptions.required(command, "hostloom leader ROLE [options] -- COMMAND [ARGS...]");
    try {
      LockKey.validate("leader:" + role);
    } catch (IllegalArgumentException e) {
      throw new UsageException("bad ROLE: " + e.getMessage(), e);
    }
    if (lease.isZero() || retry.isZero()) {
      throw new UsageException("--lease and --retry must be positive");
    }
    try {
      return LeadershipOptions.builder()
          .lease(lease)
          .renewInterval(lease.dividedBy(3))
          .retryInterval(retry)
          .jitter(retry.dividedBy(4))
          .build();
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage(), e);
    }
  }
}
