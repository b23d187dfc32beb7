package io.hostloom.cli;

import io.hostloom.locking.LockKey;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine.Option;

/**
 * Where the locks are: {@code --backend}, {@code --namespace} and {@code --config}, each falling
 * back to the environment ({@code HOSTLOOM_BACKEND}, {@code HOSTLOOM_NAMESPACE}, {@code
 * HOSTLOOM_CONFIG}) and then to the config file ({@code hostloom.backend}, {@code
 * hostloom.namespace}).
 */
final class BackendOptions {
  static final String DEFAULT_NAMESPACE = "hostloom";

  @Option(
      names = {"-b", "--backend"},
      paramLabel = "URI",
      description = {
        "The backend: redis://, rediss://, redis-sentinel://, postgresql://, jdbc:postgresql:,"
            + " mariadb://, etcd://, zookeeper://, azure-blob://, an Azure connection string, or"
            + " memory:.",
        "Default: env HOSTLOOM_BACKEND, then hostloom.backend in the config file."
      })
  String backend;

  @Option(
      names = {"-n", "--namespace"},
      paramLabel = "NAME",
      description = {
        "The lock namespace (a-z, 0-9, -); keys are <namespace>:lock:<name>.",
        "Default: env HOSTLOOM_NAMESPACE, hostloom.namespace, then '" + DEFAULT_NAMESPACE + "'."
      })
  String namespace;

  @Option(
      names = {"-c", "--config"},
      paramLabel = "FILE",
      description = {
        "A properties file: hostloom.backend, hostloom.namespace, hostloom.jdbc.user,"
            + " hostloom.jdbc.password, hostloom.jdbc.schema, hostloom.jdbc.table,"
            + " hostloom.jdbc.create-table (default true), hostloom.azure.container.",
        "Default: env HOSTLOOM_CONFIG."
      })
  Path config;

  private Properties loaded;

  /** The config file's properties (empty without a file). */
  Properties properties(Map<String, String> env) {
    if (loaded == null) {
      Path file = config != null ? config : pathOrNull(env.get("HOSTLOOM_CONFIG"));
      Properties p = new Properties();
      if (file != null) {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
          p.load(r);
        } catch (IOException e) {
          throw new UsageException("cannot read config file " + file + ": " + e.getMessage(), e);
        }
      }
      loaded = p;
    }
    return loaded;
  }

  /**
   * @throws UsageException when no backend is given anywhere
   */
  String backendUri(Map<String, String> env) {
    String uri = firstNonBlank(backend, env.get("HOSTLOOM_BACKEND"));
    if (uri == null) {
      uri = firstNonBlank(properties(env).getProperty("hostloom.backend"), null);
    }
    if (uri == null) {
      throw new UsageException(
          "no backend: give --backend URI, set HOSTLOOM_BACKEND, or hostloom.backend in --config");
    }
    return uri;
  }

  /**
   * @throws UsageException when the namespace is not valid
   */
  String namespace(Map<String, String> env) {
    String ns = firstNonBlank(namespace, env.get("HOSTLOOM_NAMESPACE"));
    if (ns == null) {
      ns = firstNonBlank(properties(env).getProperty("hostloom.namespace"), DEFAULT_NAMESPACE);
    }
    if (!LockKey.isValidNamespace(ns) || ns.equals(LockKey.RESERVED_NAMESPACE)) {
      throw new UsageException(
          "namespace must be non-empty, only a-z, 0-9 and -, and not '"
              + LockKey.RESERVED_NAMESPACE
              + "', but was '"
              + ns
              + "'");
    }
    return ns;
  }

  /** Opens the backend. */
  OpenBackend open(Map<String, String> env) {
    return Backends.open(backendUri(env), properties(env));
  }

  private static Path pathOrNull(String s) {
    return s == null || s.isBlank() ? null : Path.of(s.strip());
  }

  private static String firstNonBlank(String a, String b) {
    if (a != null && !a.isBlank()) {
      return a.strip();
    }
    return b == null || b.isBlank() ? null : b.strip();
  }
}
