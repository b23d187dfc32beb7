package io.hostloom.springboot;

import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Every {@code hostloom.*} setting. Bound as plain values and validated together by {@link
 * HostloomSettings}, so one start-up failure lists every problem at once.
 */
@ConfigurationProperties("hostloom")
public class HostloomProperties {

  /**
   * Where locks live: memory, redis, azure or postgres. No default: with locking enabled, a store
   * must be chosen (or a LockBackend bean defined).
   */
  private String store;

  private final Locking locking = new Locking();
  private final Wopi wopi = new Wopi();
  private final Redis redis = new Redis();
  private final Azure azure = new Azure();
  private final Postgres postgres = new Postgres();

  public String getStore() {
    return store;
  }

  public void setStore(String store) {
    this.store = store;
  }

  public Locking getLocking() {
    return locking;
  }

  public Wopi getWopi() {
    return wopi;
  }

  public Redis getRedis() {
    return redis;
  }

  public Azure getAzure() {
    return azure;
  }

  public Postgres getPostgres() {
    return postgres;
  }

  /** The DistributedLock's settings. */
  public static class Locking {
    /** The lock namespace: lower-case letters, digits and dashes; prefixes every key. Required. */
    private String namespace;

    /** Whether locks coordinate through the store; false runs actions without locking. */
    private boolean enabled = true;

    /** The lease of an acquisition that asks for none. */
    private Duration defaultLease = Duration.ofSeconds(30);

    /** The longest lease an acquisition or extension may get (longer requests are capped). */
    private Duration maxLease = Duration.ofMinutes(5);

    /** How long automatic extension keeps a lock at most. */
    private Duration maxHold = Duration.ofMinutes(10);

    /**
     * The retry policy between acquisition attempts, e.g. linear:10x50ms+50ms, interval:5x100ms,
     * exponential:6x10ms..1s*2, immediate:3 or default.
     */
    private String retry = "default";

    /** Whether held locks are extended automatically (at half the remaining lease). */
    private boolean autoExtend = false;

    /** Whether a nested acquisition of a key the same thread holds fails fast. */
    private boolean detectReentrancy = true;

    /** The longest key accepted, in UTF-16 units. */
    private int maxKeyLength = 512;

    public String getNamespace() {
      return namespace;
    }

    public void setNamespace(String namespace) {
      this.namespace = namespace;
    }

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Duration getDefaultLease() {
      return defaultLease;
    }

    public void setDefaultLease(Duration defaultLease) {
      this.defaultLease = defaultLease;
    }

    public Duration getMaxLease() {
      return maxLease;
    }

    public void setMaxLease(Duration maxLease) {
      this.maxLease = maxLease;
    }

    public Duration getMaxHold() {
      return maxHold;
    }

    public void setMaxHold(Duration maxHold) {
      this.maxHold = maxHold;
    }

    public String getRetry() {
      return retry;
    }

    public void setRetry(String retry) {
      this.retry = retry;
    }

    public boolean isAutoExtend() {
      return autoExtend;
    }

    public void setAutoExtend(boolean autoExtend) {
      this.autoExtend = autoExtend;
    }

    public boolean isDetectReentrancy() {
      return detectReentrancy;
    }

    public void setDetectReentrancy(boolean detectReentrancy) {
      this.detectReentrancy = detectReentrancy;
    }

    public int getMaxKeyLength() {
      return maxKeyLength;
    }

    public void setMaxKeyLength(int maxKeyLength) {
      this.maxKeyLength = maxKeyLength;
    }
  }

  /** The WopiLockProvider's settings. */
  public static class Wopi {
    /**
     * Which lock ids are equal: ordinal (byte-exact, the WOPI rule) or json-shaped (also equal when
     * both are JSON objects with the same string property "S"). A WopiLockComparer bean replaces
     * both.
     */
    private String lockComparer = "ordinal";

    /** How long a WOPI lock lives after Lock, RefreshLock or UnlockAndRelock. */
    private Duration lockExpiry = Duration.ofMinutes(30);

    /**
     * The prefix of every WOPI lock key in the store. Not used with hostloom.store=azure unless
     * hostloom.azure.dotnet-wopi-layout=false (the .NET layout names blobs by the file id alone).
     */
    private String keyPrefix = "wopi:lock:";

    public String getLockComparer() {
      return lockComparer;
    }

    public void setLockComparer(String lockComparer) {
      this.lockComparer = lockComparer;
    }

    public Duration getLockExpiry() {
      return lockExpiry;
    }

    public void setLockExpiry(Duration lockExpiry) {
      this.lockExpiry = lockExpiry;
    }

    public String getKeyPrefix() {
      return keyPrefix;
    }

    public void setKeyPrefix(String keyPrefix) {
      this.keyPrefix = keyPrefix;
    }
  }

  /** The Redis store (hostloom.store=redis, module io.hostloom:hostloom-redis). */
  public static class Redis {
    /**
     * Where Redis is: redis://[user:password@]host[:port][/db], rediss://... (TLS) or
     * redis-sentinel://host[:port][,host2[:port2]][/db]#masterName.
     */
    private String uri;

    /** The bound of every Redis command and of connecting. */
    private Duration commandTimeout = Duration.ofSeconds(5);

    public String getUri() {
      return uri;
    }

    public void setUri(String uri) {
      this.uri = uri;
    }

    public Duration getCommandTimeout() {
      return commandTimeout;
    }

    public void setCommandTimeout(Duration commandTimeout) {
      this.commandTimeout = commandTimeout;
    }
  }

  /** The Azure Blob store (hostloom.store=azure, module io.hostloom:hostloom-azure). */
  public static class Azure {
    /**
     * A storage connection string, e.g. UseDevelopmentStorage=true for Azurite. Set this or
     * service-uri, not both.
     */
    private String connectionString;

    /**
     * The blob service endpoint, e.g. https://myaccount.blob.core.windows.net, used with
     * DefaultAzureCredential. Set this or connection-string, not both.
     */
    private URI serviceUri;

    /** The dedicated container holding one blob per lock (created when missing). */
    private String containerName = "wopi-locks";

    /** The bound of every storage call. */
    private Duration commandTimeout = Duration.ofSeconds(5);

    /**
     * WOPI lock blobs named as .NET WopiHost names them (lowercase hex SHA-256 of the file id), so
     * Java and .NET hosts share one lock container; hostloom.wopi.key-prefix is then not used.
     * false: the blob of key-prefix + file id, which .NET instances do not see.
     */
    private boolean dotnetWopiLayout = true;

    public boolean isDotnetWopiLayout() {
      return dotnetWopiLayout;
    }

    public void setDotnetWopiLayout(boolean dotnetWopiLayout) {
      this.dotnetWopiLayout = dotnetWopiLayout;
    }

    public String getConnectionString() {
      return connectionString;
    }

    public void setConnectionString(String connectionString) {
      this.connectionString = connectionString;
    }

    public URI getServiceUri() {
      return serviceUri;
    }

    public void setServiceUri(URI serviceUri) {
      this.serviceUri = serviceUri;
    }

    public String getContainerName() {
      return containerName;
    }

    public void setContainerName(String containerName) {
      this.containerName = containerName;
    }

    public Duration getCommandTimeout() {
      return commandTimeout;
    }

    public void setCommandTimeout(Duration commandTimeout) {
      this.commandTimeout = commandTimeout;
    }
  }

  /**
   * The PostgreSQL store (hostloom.store=postgres, module io.hostloom:hostloom-jdbc), over the
   * application's DataSource.
   */
  public static class Postgres {
    /** The schema of the lock table; it must exist. */
    private String schema = "public";

    /** The lock table. */
    private String table = "hostloom_locks";

    /**
     * Whether the table (and its sequence) is created at start-up when missing; off by default:
     * ship the DDL with your migrations.
     */
    private boolean createTable = false;

    /** The bound of every statement, from submission to answer. */
    private Duration commandTimeout = Duration.ofSeconds(5);

    public String getSchema() {
      return schema;
    }

    public void setSchema(String schema) {
      this.schema = schema;
    }

    public String getTable() {
      return table;
    }

    public void setTable(String table) {
      this.table = table;
    }

    public boolean isCreateTable() {
      return createTable;
    }

    public void setCreateTable(boolean createTable) {
      this.createTable = createTable;
    }

    public Duration getCommandTimeout() {
      return commandTimeout;
    }

    public void setCommandTimeout(Duration commandTimeout) {
      this.commandTimeout = commandTimeout;
    }
  }
}
