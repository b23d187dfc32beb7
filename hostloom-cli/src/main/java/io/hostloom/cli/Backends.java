package io.hostloom.cli;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.azure.AzureBlobLockBackend;
import io.hostloom.etcd.EtcdLockBackend;
import io.hostloom.jdbc.JdbcLockBackend;
import io.hostloom.jdbc.SqlDialect;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.redis.RedisLockBackend;
import io.hostloom.zookeeper.ZooKeeperLockBackend;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;

/**
 * Builds a backend from its URI with the backends' public builders:
 *
 * <ul>
 *   <li>{@code redis://}, {@code rediss://}, {@code redis-sentinel://host:port,...#master}: Lettuce
 *       URIs, as they are;
 *   <li>{@code postgresql://host[:port]/db?user=..&password=..}, {@code jdbc:postgresql:...}: a
 *       small HikariCP pool;
 *   <li>{@code mariadb://host[:port]/db?user=..}, {@code jdbc:mariadb:...}, {@code jdbc:mysql:...}:
 *       the same with the MariaDB dialect;
 *   <li>{@code etcd://host:port[,host:port]} (plain http endpoints), {@code etcd+https://...};
 *   <li>{@code zookeeper://host:port[,host:port][/chroot]};
 *   <li>{@code azure-blob://account.blob.core.windows.net[/container]} (azure-identity's default
 *       credential), or an Azure Storage connection string ({@code AccountName=...;...}, {@code
 *       UseDevelopmentStorage=true});
 *   <li>{@code memory:}: inside this process only (demos; nothing is shared between processes).
 * </ul>
 *
 * Settings beyond the URI come from the config file ({@code hostloom.jdbc.*}, {@code
 * hostloom.azure.container}).
 */
final class Backends {
  static final String SCHEMES =
      "redis://, rediss://, redis-sentinel://, postgresql://, jdbc:postgresql:, mariadb://,"
          + " jdbc:mariadb:, etcd://, zookeeper://, azure-blob://, an Azure connection string,"
          + " memory:";

  private static final Pattern CONNECTION_STRING =
      Pattern.compile(
          "(?i).*\\b(AccountName|UseDevelopmentStorage|BlobEndpoint|SharedAccessSignature)=.*");

  /**
   * Each backend call's bound unless {@code hostloom.command-timeout} says otherwise: longer than
   * the libraries' 5 s, since hostloom's first call also connects and loads classes in a cold JVM.
   */
  static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(10);

  private Backends() {}

  private static Duration commandTimeout(Properties config) {
    String v = config.getProperty("hostloom.command-timeout");
    try {
      Duration d = v == null ? DEFAULT_COMMAND_TIMEOUT : Durations.parse(v);
      if (d.isZero()) {
        throw new UsageException("hostloom.command-timeout must be positive");
      }
      return d;
    } catch (picocli.CommandLine.TypeConversionException e) {
      throw new UsageException("hostloom.command-timeout: " + e.getMessage(), e);
    }
  }

  /**
   * @throws UsageException when the URI is malformed or its scheme unknown
   */
  static OpenBackend open(String uri, Properties config) {
    String u = uri.strip();
    Duration timeout = commandTimeout(config);
    String lower = u.toLowerCase(Locale.ROOT);
    try {
      if (lower.startsWith("redis://")
          || lower.startsWith("rediss://")
          || lower.startsWith("redis-sentinel://")) {
        RedisLockBackend b = RedisLockBackend.builder().uri(u).commandTimeout(timeout).build();
        return new OpenBackend(b, List.of(b));
      }
      if (lower.startsWith("postgresql://") || lower.startsWith("postgres://")) {
        return jdbcUrlForm("jdbc:postgresql://", afterScheme(u), SqlDialect.POSTGRESQL, config);
      }
      if (lower.startsWith("jdbc:postgresql:")) {
        return jdbc(u, SqlDialect.POSTGRESQL, config);
      }
      if (lower.startsWith("mariadb://") || lower.startsWith("mysql://")) {
        return jdbcUrlForm("jdbc:mariadb://", afterScheme(u), SqlDialect.MARIADB, config);
      }
      if (lower.startsWith("jdbc:mariadb:") || lower.startsWith("jdbc:mysql:")) {
        return jdbc(u, SqlDialect.MARIADB, config);
      }
      if (lower.startsWith("etcd://") || lower.startsWith("etcd+http://")) {
        return etcd("http", afterScheme(u), timeout);
      }
      if (lower.startsWith("etcd+https://")) {
        return etcd("https", afterScheme(u), timeout);
      }
      if (lower.startsWith("zookeeper://") || lower.startsWith("zk://")) {
        String connect = afterScheme(u);
        if (connect.isEmpty() || connect.startsWith("/")) {
          throw new UsageException("zookeeper URI needs host:port: '" + uri + "'");
        }
        ZooKeeperLockBackend b =
            ZooKeeperLockBackend.builder().connectString(connect).commandTimeout(timeout).build();
        return new OpenBackend(b, List.of(b));
      }
      if (lower.startsWith("azure-blob://")) {
        return azureUri(u, config, timeout);
      }
      if (CONNECTION_STRING.matcher(u).matches()) {
        AzureBlobLockBackend b =
            AzureBlobLockBackend.builder()
                .connectionString(u)
                .commandTimeout(timeout)
                .containerName(azureContainer(null, config))
                .build();
        return new OpenBackend(b, List.of());
      }
      if (lower.equals("memory:") || lower.equals("memory")) {
        return new OpenBackend(new InMemoryLockBackend(), List.of());
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException("bad backend '" + redact(u) + "': " + e.getMessage(), e);
    }
    throw new UsageException(
        "unknown backend scheme in '" + redact(u) + "'; expected one of " + SCHEMES);
  }

  private static String afterScheme(String uri) {
    return uri.substring(uri.indexOf("://") + 3);
  }

  private static OpenBackend etcd(String protocol, String hosts, Duration timeout) {
    String[] endpoints =
        Arrays.stream(stripPath(hosts).split(",", -1))
            .map(String::strip)
            .filter(h -> !h.isEmpty())
            .map(h -> protocol + "://" + h)
            .toArray(String[]::new);
    if (endpoints.length == 0) {
      throw new UsageException("etcd URI needs host:port");
    }
    EtcdLockBackend b =
        EtcdLockBackend.builder().endpoints(endpoints).commandTimeout(timeout).build();
    return new OpenBackend(b, List.of(b));
  }

  private static String stripPath(String authority) {
    int slash = authority.indexOf('/');
    return slash < 0 ? authority : authority.substring(0, slash);
  }

  private static OpenBackend azureUri(String uri, Properties config, Duration timeout) {
    URI parsed;
    try {
      parsed = new URI(uri);
    } catch (URISyntaxException e) {
      throw new UsageException("bad azure-blob URI: " + e.getMessage(), e);
    }
    if (parsed.getHost() == null) {
      throw new UsageException("azure-blob URI needs the account's host: '" + uri + "'");
    }
    String path = parsed.getPath() == null ? "" : parsed.getPath().replaceAll("^/+|/+$", "");
    String service =
        "https://" + parsed.getHost() + (parsed.getPort() < 0 ? "" : ":" + parsed.getPort());
    AzureBlobLockBackend b =
        AzureBlobLockBackend.builder()
            .serviceUri(service)
            .commandTimeout(timeout)
            .containerName(azureContainer(path.isEmpty() ? null : path, config))
            .build();
    return new OpenBackend(b, List.of());
  }

  private static String azureContainer(String fromUri, Properties config) {
    if (fromUri != null) {
      return fromUri;
    }
    return config.getProperty(
        "hostloom.azure.container", AzureBlobLockBackend.DEFAULT_CONTAINER_NAME);
  }

  /** {@code user:password@host/db?...}: the user info moves to the pool, JDBC URLs have none. */
  private static OpenBackend jdbcUrlForm(
      String jdbcPrefix, String rest, SqlDialect dialect, Properties config) {
    int at = rest.indexOf('@');
    int slash = rest.indexOf('/');
    if (at < 0 || (slash >= 0 && slash < at)) {
      return jdbc(jdbcPrefix + rest, dialect, config, null, null);
    }
    String userInfo = rest.substring(0, at);
    int colon = userInfo.indexOf(':');
    String user = colon < 0 ? userInfo : userInfo.substring(0, colon);
    String password = colon < 0 ? null : userInfo.substring(colon + 1);
    return jdbc(
        jdbcPrefix + rest.substring(at + 1),
        dialect,
        config,
        decode(user),
        password == null ? null : decode(password));
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }

  private static OpenBackend jdbc(String jdbcUrl, SqlDialect dialect, Properties config) {
    return jdbc(jdbcUrl, dialect, config, null, null);
  }

  private static OpenBackend jdbc(
      String jdbcUrl, SqlDialect dialect, Properties config, String uriUser, String uriPassword) {
    HikariConfig hc = new HikariConfig();
    hc.setJdbcUrl(jdbcUrl);
    String user = uriUser != null ? uriUser : config.getProperty("hostloom.jdbc.user");
    if (user != null) {
      hc.setUsername(user);
    }
    String password =
        uriPassword != null ? uriPassword : config.getProperty("hostloom.jdbc.password");
    if (password != null) {
      hc.setPassword(password);
    }
    // one command runs at a time here: a lease, its extensions and a release
    hc.setMaximumPoolSize(2);
    hc.setMinimumIdle(1);
    hc.setPoolName("hostloom-cli");
    hc.setConnectionTimeout(Duration.ofSeconds(10).toMillis());
    // fail at the first command instead of at start, like the other backends
    hc.setInitializationFailTimeout(-1);
    List<AutoCloseable> resources = new ArrayList<>();
    HikariDataSource pool = new HikariDataSource(hc);
    resources.add(pool);
    try {
      JdbcLockBackend.Builder b =
          JdbcLockBackend.builder(pool)
              .dialect(dialect)
              .executorThreads(2)
              .commandTimeout(commandTimeout(config))
              .createTableIfMissing(
                  Boolean.parseBoolean(config.getProperty("hostloom.jdbc.create-table", "true")));
      String schema = config.getProperty("hostloom.jdbc.schema");
      if (schema != null) {
        b.schema(schema);
      }
      String table = config.getProperty("hostloom.jdbc.table");
      if (table != null) {
        b.table(table);
      }
      JdbcLockBackend backend = b.build();
      resources.add(backend);
      return new OpenBackend(backend, resources);
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
  }

  /**
   * The answer of a backend call (each backend bounds its calls by its own command timeout); a
   * failure is rethrown as it is.
   */
  static <T> T await(CompletableFuture<T> call) throws InterruptedException {
    try {
      return call.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** The URI without its password, for messages. */
  static String redact(String uri) {
    return uri.replaceAll("(?i)(://[^:/@]*:)[^@/]*@", "$1***@")
        .replaceAll("(?i)(password=)[^&;]*", "$1***")
        .replaceAll("(?i)(AccountKey=)[^;]*", "$1***")
        .replaceAll("(?i)(SharedAccessSignature=)[^;]*", "$1***");
  }
}
