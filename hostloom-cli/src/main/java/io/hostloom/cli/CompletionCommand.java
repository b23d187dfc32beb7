package io.hostloom.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code hostloom completion}: the bash/zsh completion script, made by picocli's generator. */
@Command(
    name = "completion",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Prints the bash completion script (zsh: after 'autoload -U +X bashcompinit &&"
          + " bashcompinit').",
      "Install: hostloom completion > /etc/bash_completion.d/hostloom, or"
          + " source <(hostloom completion) in ~/.bashrc."
    })
final class CompletionCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    out.print(AutoComplete.bash("hostloom", spec.root().commandLine()));
    out.flush();
    return ExitCodes.OK;
  }
}
