package io.hostloom.cli;

import io.hostloom.locking.LockKey;
import io.hostloom.locking.spi.LeaseRecord;
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

/** {@code hostloom status NAME}. */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Shows whether the lock NAME is held: its fencing token, the time left of its lease (on the"
          + " backend's clock) and the data stored with the grant. A leader's lock is leader:ROLE.",
      "Exit code 0 whether held or free; 64 bad input; 69 backend unavailable."
    })
final class StatusCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin BackendOptions where;

  @Parameters(index = "0", paramLabel = "NAME", description = "The lock's name.")
  String name;

  @Option(names = "--json", description = "One JSON object instead of text.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    try {
      LockKey.validate(name);
    } catch (IllegalArgumentException e) {
      throw new UsageException("bad lock NAME: " + e.getMessage(), e);
    }
    Map<String, String> env = System.getenv();
    // the kernel's documented backend key: <namespace>:lock:<key>
    String key = where.namespace(env) + ":lock:" + name;
    Optional<LeaseRecord> record;
    try (OpenBackend backend = where.open(env)) {
      record = Backends.await(backend.backend().read(key));
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("name", name);
      fields.put("key", key);
      fields.put("held", record.isPresent());
      fields.put("fencingToken", record.map(LeaseRecord::fencingToken).orElse(null));
      fields.put("remainingMillis", record.map(r -> r.remaining().toMillis()).orElse(null));
      fields.put("data", record.map(LeaseRecord::data).orElse(null));
      out.println(Json.object(fields));
    } else if (record.isEmpty()) {
      out.println(name + ": free");
    } else {
      LeaseRecord r = record.get();
      out.println(
          name
              + ": held, fencing token "
              + r.fencingToken()
              + ", "
              + Durations.format(r.remaining())
              + " left"
              + (r.data().isEmpty() ? "" : ", data: " + r.data()));
    }
    out.flush();
    return ExitCodes.OK;
  }
}
