package io.hostloom.springboot;

import io.hostloom.locking.LockKey;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.wopi.WopiLockComparer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The {@code hostloom.*} settings after validation: built once at start-up, it checks every rule
 * and throws one {@link HostloomConfigurationException} listing every problem. Every bean of the
 * starter is built from it, so no bean ever sees an invalid value.
 */
public final class HostloomSettings {
  /** The bean name every store auto-configuration gives its {@code LockBackend}. */
  public static final String BACKEND_BEAN = "hostloomLockBackend";

  /** The bean name of the starter's own {@code WopiLockComparer}. */
  public static final String COMPARER_BEAN = "hostloomWopiLockComparer";

  private static final Pattern AZURE_CONTAINER = Pattern.compile("[a-z0-9](?:-?[a-z0-9]){2,62}");
  private static final Pattern SQL_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,47}");

  /** The values of {@code hostloom.store}. */
  public enum Store {
    MEMORY("memory", null, null),
    REDIS("redis", "io.hostloom.redis.RedisLockBackend", "io.hostloom:hostloom-redis"),
    AZURE("azure", "io.hostloom.azure.AzureBlobLockBackend", "io.hostloom:hostloom-azure"),
    POSTGRES("postgres", "io.hostloom.jdbc.JdbcLockBackend", "io.hostloom:hostloom-jdbc");

    private final String value;
    private final String backendClass;
    private final String artifact;

    Store(String value, String backendClass, String artifact) {
      this.value = value;
      this.backendClass = backendClass;
      this.artifact = artifact;
    }

    /** The property value, e.g. {@code redis}. */
    public String value() {
      return value;
    }

    static Optional<Store> parse(String s) {
      return Arrays.stream(values()).filter(v -> v.value.equals(s)).findFirst();
    }

    static String choices() {
      return String.join(", ", Arrays.stream(values()).map(Store::value).toList());
    }
  }

  /**
   * What the application context looks like, for the rules that depend on it.
   *
   * @param userBackends names of {@code LockBackend} beans the application defines itself
   * @param userComparer whether the application defines a {@code WopiLockComparer} bean
   * @param dataSource whether a {@code javax.sql.DataSource} bean exists
   * @param classPresent whether a class is on the classpath
   */
  public record Context(
      List<String> userBackends,
      boolean userComparer,
      boolean dataSource,
      Predicate<String> classPresent) {}

  private final Optional<Store> store;
  private final LockingOptions lockingOptions;
  private final Optional<WopiLockComparer> comparer;
  private final Duration wopiExpiry;
  private final String wopiKeyPrefix;
  private final HostloomProperties properties;

  private HostloomSettings(
      Optional<Store> store,
      LockingOptions lockingOptions,
      Optional<WopiLockComparer> comparer,
      HostloomProperties properties) {
    this.store = store;
    this.lockingOptions = lockingOptions;
    this.comparer = comparer;
    this.wopiExpiry = properties.getWopi().getLockExpiry();
    // Azure: the .NET WopiHost blob name (SHA-256 of the bare file id) unless opted out
    this.wopiKeyPrefix =
        store.equals(Optional.of(Store.AZURE)) && properties.getAzure().isDotnetWopiLayout()
            ? ""
            : properties.getWopi().getKeyPrefix();
    this.properties = properties;
  }

  /**
   * Validates {@code p} in {@code context}.
   *
   * @throws HostloomConfigurationException listing every problem
   */
  public static HostloomSettings validate(HostloomProperties p, Context context) {
    List<String> problems = new ArrayList<>();
    HostloomProperties.Locking l = p.getLocking();

    Optional<Store> store = Optional.empty();
    String storeValue = p.getStore() == null ? "" : p.getStore().strip().toLowerCase(Locale.ROOT);
    if (storeValue.isEmpty()) {
      if (l.isEnabled() && context.userBackends().isEmpty()) {
        problems.add(
            "hostloom.store is not set: choose where locks live with hostloom.store="
                + Store.choices()
                + " (memory for a single instance or tests), define a LockBackend bean, or"
                + " set hostloom.locking.enabled=false");
      }
    } else {
      store = Store.parse(storeValue);
      if (store.isEmpty()) {
        problems.add(
            "hostloom.store must be one of " + Store.choices() + " but was '" + p.getStore() + "'");
      }
    }
    if (context.userBackends().size() > 1) {
      problems.add(
          "the application defines "
              + context.userBackends().size()
              + " LockBackend beans "
              + context.userBackends()
              + ": define exactly one");
    }
    boolean storeInUse = store.isPresent() && context.userBackends().isEmpty();
    if (storeInUse) {
      storeProblems(store.get(), p, context, problems);
    }

    LockRetryPolicy retry = null;
    try {
      retry = RetrySpec.parse(l.getRetry());
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
    }
    LockingOptions options =
        LockingOptions.builder()
            .namespace(l.getNamespace())
            .enabled(l.isEnabled())
            .defaultLease(l.getDefaultLease())
            .maxLease(l.getMaxLease())
            .maxHold(l.getMaxHold())
            .retry(retry == null ? LockRetryPolicy.defaultPolicy() : retry)
            .autoExtend(l.isAutoExtend())
            .detectReentrancy(l.isDetectReentrancy())
            .maxKeyLength(l.getMaxKeyLength())
            .build();
    problems.addAll(options.validate());

    Optional<WopiLockComparer> comparer = Optional.empty();
    if (!context.userComparer()) {
      String c = p.getWopi().getLockComparer();
      String normalised = c == null ? "" : c.strip().toLowerCase(Locale.ROOT);
      if (normalised.equals("ordinal")) {
        comparer = Optional.of(WopiLockComparer.ordinal());
      } else if (normalised.equals("json-shaped")) {
        comparer = Optional.of(WopiLockComparer.jsonShaped());
      } else {
        problems.add(
            "hostloom.wopi.lock-comparer must be ordinal or json-shaped (or define a"
                + " WopiLockComparer bean) but was '"
                + c
                + "'");
      }
    }
    Duration expiry = p.getWopi().getLockExpiry();
    if (expiry == null || expiry.isNegative() || expiry.isZero()) {
      problems.add("hostloom.wopi.lock-expiry must be positive but was " + expiry);
    }
    String prefix = p.getWopi().getKeyPrefix();
    if (prefix == null || prefix.length() > 1024) {
      problems.add(
          "hostloom.wopi.key-prefix must be at most 1024 characters but was "
              + (prefix == null ? "null" : prefix.length() + " characters"));
    } else if (!prefix.isEmpty() && LockKey.canPrefixKernelKey(prefix)) {
      problems.add(
          "hostloom.wopi.key-prefix must not be the start of a kernel lock key"
              + " <namespace>:lock:<key> (a file id could name a kernel lock) but was '"
              + prefix
              + "'");
    }

    if (!problems.isEmpty()) {
      throw HostloomConfigurationException.of(problems);
    }
    return new HostloomSettings(store, options, comparer, p);
  }

  private static void storeProblems(
      Store store, HostloomProperties p, Context context, List<String> problems) {
    if (store.backendClass != null && !context.classPresent().test(store.backendClass)) {
      problems.add(
          "hostloom.store="
              + store.value
              + " needs "
              + store.artifact
              + " on the classpath (add it as a dependency)");
      return;
    }
    switch (store) {
      case REDIS -> {
        HostloomProperties.Redis r = p.getRedis();
        String uri = r.getUri() == null ? "" : r.getUri().strip();
        if (uri.isEmpty()) {
          problems.add(
              "hostloom.redis.uri is required with hostloom.store=redis, e.g."
                  + " redis://localhost:6379");
        } else if (!uri.matches("(?i)(redis|rediss|redis-sentinel)://.+")) {
          problems.add(
              "hostloom.redis.uri must start with redis://, rediss:// or redis-sentinel:// but"
                  + " was '"
                  + schemeOf(uri)
                  + "'");
        }
        checkPositive("hostloom.redis.command-timeout", r.getCommandTimeout(), problems);
      }
      case AZURE -> {
        HostloomProperties.Azure a = p.getAzure();
        boolean cs = a.getConnectionString() != null && !a.getConnectionString().isBlank();
        boolean uri = a.getServiceUri() != null;
        if (!cs && !uri) {
          problems.add(
              "hostloom.azure.connection-string or hostloom.azure.service-uri is required with"
                  + " hostloom.store=azure (UseDevelopmentStorage=true for Azurite)");
        } else if (cs && uri) {
          problems.add(
              "hostloom.azure.connection-string and hostloom.azure.service-uri are both set:"
                  + " set exactly one");
        }
        if (uri
            && !List.of("http", "https").contains(String.valueOf(a.getServiceUri().getScheme()))) {
          problems.add(
              "hostloom.azure.service-uri must be an absolute http(s) URI but was '"
                  + a.getServiceUri()
                  + "'");
        }
        String container = a.getContainerName();
        if (container == null || !AZURE_CONTAINER.matcher(container).matches()) {
          problems.add(
              "hostloom.azure.container-name must be 3 to 63 lower-case letters, digits and"
                  + " single dashes, starting and ending with a letter or digit, but was '"
                  + container
                  + "'");
        }
        checkPositive("hostloom.azure.command-timeout", a.getCommandTimeout(), problems);
      }
      case POSTGRES -> {
        HostloomProperties.Postgres pg = p.getPostgres();
        if (!context.dataSource()) {
          problems.add(
              "hostloom.store=postgres needs a javax.sql.DataSource bean (set"
                  + " spring.datasource.url, or define one)");
        }
        for (String[] id :
            new String[][] {
              {"hostloom.postgres.schema", pg.getSchema()},
              {"hostloom.postgres.table", pg.getTable()}
            }) {
          if (id[1] == null || !SQL_IDENTIFIER.matcher(id[1]).matches()) {
            problems.add(
                id[0]
                    + " must be an unquoted SQL identifier (a letter or _, then letters, digits"
                    + " or _, at most 48) but was '"
                    + id[1]
                    + "'");
          }
        }
        checkPositive("hostloom.postgres.command-timeout", pg.getCommandTimeout(), problems);
      }
      case MEMORY -> {}
    }
  }

  private static String schemeOf(String uri) {
    int colon = uri.indexOf("://");
    return colon < 0 ? "no scheme" : uri.substring(0, colon) + "://";
  }

  private static void checkPositive(String key, Duration d, List<String> problems) {
    if (d == null || d.isNegative() || d.isZero()) {
      problems.add(key + " must be positive but was " + d);
    }
  }

  /** The chosen store; empty when none is set (locking disabled or a user LockBackend bean). */
  public Optional<Store> store() {
    return store;
  }

  /** The lock options, valid. */
  public LockingOptions lockingOptions() {
    return lockingOptions;
  }

  /** The configured comparer; empty when the application defines its own bean. */
  public Optional<WopiLockComparer> comparer() {
    return comparer;
  }

  public Duration wopiExpiry() {
    return wopiExpiry;
  }

  /**
   * The WOPI key prefix: {@code hostloom.wopi.key-prefix}, or empty with {@code
   * hostloom.store=azure} and the .NET layout (the default there).
   */
  public String wopiKeyPrefix() {
    return wopiKeyPrefix;
  }

  /** The raw (validated) properties, for the store-specific settings. */
  public HostloomProperties properties() {
    return properties;
  }
}
