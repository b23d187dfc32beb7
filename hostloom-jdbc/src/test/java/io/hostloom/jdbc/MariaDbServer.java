package io.hostloom.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.testkit.server.ServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real MariaDB server for tests: the system's {@code mariadbd} (Debian's {@code mariadb-server},
 * or the directory of {@value #BIN_PROPERTY}), a data directory copied from one {@code
 * mariadb-install-db} run per test JVM, a free loopback port. It can {@link #stop() stop}, {@link
 * #kill() kill -9} and {@link #start() start} the same data directory on the same port. As root the
 * server runs with {@code --user=root}. {@link #shared()} is started once per test JVM.
 */
final class MariaDbServer implements AutoCloseable {
  static final String BIN_PROPERTY = "hostloom.test.mariadb.bin";

  private static final String HOW_TO_FIX =
      "MariaDB is not installed: apt-get install mariadb-server (scripts/setup.sh does), or pass"
          + " -D"
          + BIN_PROPERTY
          + "=<directory with mariadbd and mariadb-install-db>.";

  private static Path template;
  private static MariaDbServer shared;

  private final Path root;
  private final Path data;
  private final int port;
  private final boolean durable;
  private final List<HikariDataSource> pools = new ArrayList<>();
  private final ServerProcess process;

  private MariaDbServer(String name, boolean durable) {
    this.durable = durable;
    try {
      Path initialized = template();
      this.root = Files.createTempDirectory("hostloom-mariadb-" + name + "-");
      this.data = root.resolve("data");
      copy(initialized, data);
      this.port = ServerProcess.freePort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.process =
        new ServerProcess("mariadbd", root.resolve("stdout.log"), Duration.ofSeconds(60));
    start();
    Runtime.getRuntime().addShutdownHook(new Thread(this::close, "mariadb-" + name + "-stop"));
  }

  /** The server most tests share (fast, not durable), started on first use. */
  static synchronized MariaDbServer shared() {
    if (shared == null) {
      shared = new MariaDbServer("shared", false);
    }
    return shared;
  }

  /** A server of its own; {@code durable}: flush the redo log at every commit (the default). */
  static MariaDbServer startNew(String name, boolean durable) {
    return new MariaDbServer(name, durable);
  }

  int port() {
    return port;
  }

  String jdbcUrl(String database) {
    return "jdbc:mariadb://127.0.0.1:" + port + "/" + database + "?user=root";
  }

  synchronized void start() {
    if (process.running()) {
      return;
    }
    List<String> command = new ArrayList<>();
    command.add(binary("mariadbd").toString());
    command.add("--no-defaults");
    command.add("--datadir=" + data);
    command.add("--port=" + port);
    command.add("--bind-address=127.0.0.1");
    command.add("--socket=" + root.resolve("sock"));
    command.add("--pid-file=" + root.resolve("pid"));
    command.add("--log-error=" + root.resolve("error.log"));
    command.add("--skip-log-bin");
    command.add("--innodb-buffer-pool-size=32M");
    command.add("--max-connections=300");
    if (!durable) {
      command.add("--innodb-flush-log-at-trx-commit=2");
      command.add("--innodb-doublewrite=0");
    }
    if (isRoot()) {
      command.add("--user=root");
    }
    try {
      process.launch(command, null);
    } catch (IOException e) {
      throw new IllegalStateException("cannot start mariadbd. " + HOW_TO_FIX, e);
    }
    process.awaitReady(
        "start on port " + port + " (see " + root + "/error.log). " + HOW_TO_FIX,
        Duration.ofSeconds(60),
        this::answers);
  }

  private boolean answers() {
    try (Connection c = DriverManager.getConnection(jdbcUrl(""))) {
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  /** A clean shutdown (SIGTERM: InnoDB flushes and exits). */
  void stop() {
    process.stop();
  }

  /** kill -9: a crash; InnoDB recovers from its redo log at the next start. */
  void kill() {
    process.kill();
  }

  void createDatabase(String database) {
    execute("", "CREATE DATABASE IF NOT EXISTS `" + database + "`");
  }

  void execute(String database, String sql) {
    try (Connection c = connect(database);
        Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  Connection connect(String database) throws SQLException {
    return DriverManager.getConnection(jdbcUrl(database));
  }

  /** A HikariCP pool on {@code database}; may be created while the server is down. */
  synchronized HikariDataSource pool(String database, int size, Duration connectionTimeout) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl(database));
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(0);
    config.setConnectionTimeout(Math.max(250, connectionTimeout.toMillis()));
    config.setValidationTimeout(Math.max(250, Math.min(connectionTimeout.toMillis(), 5000)));
    config.setInitializationFailTimeout(-1);
    config.setPoolName("test-mariadb-" + UUID.randomUUID().toString().substring(0, 8));
    HikariDataSource pool = new HikariDataSource(config);
    pools.add(pool);
    return pool;
  }

  @Override
  public synchronized void close() {
    pools.forEach(HikariDataSource::close);
    pools.clear();
    process.kill();
    ServerProcess.deleteTree(root);
  }

  /** One mariadb-install-db run per JVM; every server starts from a copy. */
  private static synchronized Path template() throws IOException {
    if (template == null) {
      Path dir = Files.createTempDirectory("hostloom-mariadb-template-");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> ServerProcess.deleteTree(dir)));
      List<String> command = new ArrayList<>();
      command.add(binary("mariadb-install-db").toString());
      command.add("--no-defaults");
      command.add("--datadir=" + dir.resolve("data"));
      command.add("--auth-root-authentication-method=normal");
      command.add("--skip-test-db");
      command.add("--skip-name-resolve");
      if (isRoot()) {
        command.add("--user=root");
      }
      Path log = dir.resolve("install.log");
      try {
        Process p =
            new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
          p.destroyForcibly();
          throw new IllegalStateException(
              "mariadb-install-db failed: " + Files.readString(log) + "\n" + HOW_TO_FIX);
        }
      } catch (IOException e) {
        throw new IllegalStateException("cannot run mariadb-install-db. " + HOW_TO_FIX, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
      template = dir.resolve("data");
    }
    return template;
  }

  private static Path binary(String name) {
    String dir = System.getProperty(BIN_PROPERTY);
    List<Path> candidates =
        dir != null
            ? List.of(Path.of(dir, name))
            : List.of(
                Path.of("/usr/sbin", name),
                Path.of("/usr/bin", name),
                Path.of("/usr/local/bin", name));
    for (Path candidate : candidates) {
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException(name + " not found in " + candidates + ". " + HOW_TO_FIX);
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path source : files.toList()) {
        Files.copy(source, to.resolve(from.relativize(source)), StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
  }
}
