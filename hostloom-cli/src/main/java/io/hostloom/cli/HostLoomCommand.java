package io.hostloom.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** The root command, {@code hostloom}. */
@Command(
    name = "hostloom",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description =
        "Runs any program under a distributed lock or as a leader, over Redis, PostgreSQL,"
            + " MariaDB, etcd, ZooKeeper or Azure Blob Storage.",
    subcommands = {
      LockCommand.class,
      LeaderCommand.class,
      StatusCommand.class,
      WopiCommand.class,
      CompletionCommand.class
    },
    footer = {
      "",
      "The backend comes from --backend, env HOSTLOOM_BACKEND or hostloom.backend in a --config"
          + " file. 'hostloom COMMAND --help' describes each command."
    })
final class HostLoomCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UsageException("missing command: lock, leader, status, wopi or completion");
  }
}
