package io.hostloom.cli;

import io.hostloom.wopi.WopiLockInfo;
import io.hostloom.wopi.WopiLockProvider;
import io.hostloom.wopi.WopiLockResult;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hostloom wopi get|unlock FILEID}: the WOPI host's locks, for its operators. */
@Command(
    name = "wopi",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description =
        "Reads or removes a WOPI file lock (keys wopi:lock:<fileId>, as the WOPI host keeps them;"
            + " --namespace does not apply).",
    subcommands = {WopiCommand.Get.class, WopiCommand.Unlock.class})
final class WopiCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    throw new UsageException("missing subcommand: hostloom wopi get|unlock FILEID");
  }

  private static Map<String, Object> fields(String fileId, Optional<WopiLockInfo> lock) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("fileId", fileId);
    f.put("locked", lock.isPresent());
    f.put("lockId", lock.map(WopiLockInfo::lockId).orElse(null));
    f.put("lastRefreshed", lock.map(l -> l.lastRefreshed().toString()).orElse(null));
    f.put("expiresAt", lock.map(l -> l.expiresAt().toString()).orElse(null));
    return f;
  }

  private static String text(String fileId, Optional<WopiLockInfo> lock) {
    return lock.map(
            l ->
                fileId
                    + ": locked, lock id "
                    + l.lockId()
                    + ", refreshed "
                    + l.lastRefreshed()
                    + ", expires "
                    + l.expiresAt())
        .orElse(fileId + ": not locked");
  }

  @Command(
      name = "get",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = "Shows FILEID's lock: its lock id, last refresh and expiry. Exit code 0.")
  static final class Get implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin BackendOptions where;

    @Parameters(index = "0", paramLabel = "FILEID", description = "The WOPI file id.")
    String fileId;

    @Option(names = "--json", description = "One JSON object instead of text.")
    boolean json;

    @Override
    public Integer call() {
      Optional<WopiLockInfo> lock;
      try (OpenBackend backend = where.open(System.getenv())) {
        lock = WopiLockProvider.create(backend.backend()).getLock(fileId);
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println(json ? Json.object(fields(fileId, lock)) : text(fileId, lock));
      out.flush();
      return ExitCodes.OK;
    }
  }

  @Command(
      name = "unlock",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = {
        "Removes FILEID's lock when its lock id is --lock-id (WOPI's Unlock: only the holder's"
            + " id unlocks).",
        "Exit code 0 when removed; 1 when not locked or locked with another id (printed)."
      })
  static final class Unlock implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Mixin BackendOptions where;

    @Parameters(index = "0", paramLabel = "FILEID", description = "The WOPI file id.")
    String fileId;

    @Option(
        names = "--lock-id",
        required = true,
        paramLabel = "ID",
        description = "The lock id the file is locked with (see wopi get).")
    String lockId;

    @Option(names = "--json", description = "One JSON object instead of text.")
    boolean json;

    @Override
    public Integer call() {
      WopiLockResult result;
      try (OpenBackend backend = where.open(System.getenv())) {
        result = WopiLockProvider.create(backend.backend()).remove(fileId, lockId);
      }
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        Map<String, Object> f = fields(fileId, result.currentLock());
        f.put("unlocked", result.success());
        out.println(Json.object(f));
      } else if (result.success()) {
        out.println(fileId + ": unlocked");
      } else {
        out.println(
            "not unlocked: "
                + result
                    .currentLock()
                    .map(l -> fileId + " is locked with lock id " + l.lockId())
                    .orElse(fileId + " is not locked"));
      }
      out.flush();
      return result.success() ? ExitCodes.OK : ExitCodes.CONFLICT;
    }
  }
}
