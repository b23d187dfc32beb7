package io.hostloom.cli;

import io.hostloom.locking.LockBackendUnavailableException;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.wopi.WopiLockUnavailableException;
import java.io.PrintWriter;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** The {@code hostloom} command line; exit codes in {@link ExitCodes}. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns its exit code. */
  public static int run(String... args) {
    quietLogging();
    CommandLine cl = new CommandLine(new HostLoomCommand());
    cl.setParameterExceptionHandler(Main::badParameters);
    cl.setExecutionExceptionHandler((e, cmd, parsed) -> failed(e, cmd.getErr()));
    return cl.execute(args);
  }

  private static int badParameters(ParameterException e, String[] args) {
    PrintWriter err = e.getCommandLine().getErr();
    err.println(
        "hostloom: "
            + e.getMessage()
            + " (see '"
            + e.getCommandLine().getCommandSpec().qualifiedName()
            + " --help')");
    err.flush();
    return ExitCodes.USAGE;
  }

  private static int failed(Exception e, PrintWriter err) {
    Throwable t = e;
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    int code;
    String message;
    if (t instanceof UsageException) {
      code = ExitCodes.USAGE;
      message = t.getMessage();
    } else if (t instanceof LockBackendUnavailableException
        || t instanceof LockBackendException
        || t instanceof WopiLockUnavailableException) {
      code = ExitCodes.UNAVAILABLE;
      message = "backend unavailable: " + t.getMessage();
    } else if (t instanceof IllegalArgumentException) {
      code = ExitCodes.USAGE; // the builders' and validators' checks of what the user gave
      message = t.getMessage();
    } else {
      code = ExitCodes.SOFTWARE;
      message = "unexpected error: " + t;
    }
    err.println("hostloom: " + message);
    err.flush();
    return code;
  }

  /** Warnings and errors of the libraries on stderr, unless the user set slf4j-simple up. */
  private static void quietLogging() {
    setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    setIfAbsent("org.slf4j.simpleLogger.logFile", "System.err");
    setIfAbsent("org.slf4j.simpleLogger.showThreadName", "false");
    setIfAbsent("org.slf4j.simpleLogger.showShortLogName", "true");
    // jetcd warns about its lease keep-alive channel when the client closes at exit
    setIfAbsent("org.slf4j.simpleLogger.log.io.etcd.jetcd.impl.LeaseImpl", "error");
  }

  private static void setIfAbsent(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }
}
