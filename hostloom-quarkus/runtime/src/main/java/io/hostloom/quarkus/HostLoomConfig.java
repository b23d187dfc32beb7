package io.hostloom.quarkus;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The {@code hostloom.*} settings, with the names of the Spring Boot starter's properties, so a
 * configuration moves between the two unchanged (the starter's {@code hostloom.wopi.*} and {@code
 * hostloom.scheduling.*} have no counterpart here: this extension builds no WOPI provider and no
 * scheduler). An unset value takes the kernel's or the backend's {@code DEFAULT_*} constant (the
 * builder's own default), so no default is written twice. Durations take Quarkus' forms ({@code
 * 30s}, {@code 50ms}, ISO-8601 {@code PT30S}); a plain number is seconds here (milliseconds in
 * Spring Boot).
 */
@ConfigMapping(prefix = "hostloom")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface HostLoomConfig {

  /**
   * Where locks live: memory, redis, postgres, mariadb, etcd, zookeeper or azure. No default: with
   * locking enabled a backend must be chosen (or a {@code LockBackend} bean defined).
   */
  Optional<String> backend();

  /** The DistributedLock's settings. */
  Locking locking();

  /** hostloom.backend=redis (io.hostloom:hostloom-redis). */
  Redis redis();

  /** hostloom.backend=postgres (io.hostloom:hostloom-jdbc), over the default DataSource. */
  Jdbc postgres();

  /** hostloom.backend=mariadb (io.hostloom:hostloom-jdbc), over the default DataSource. */
  MariaDb mariadb();

  /** hostloom.backend=etcd (io.hostloom:hostloom-etcd). */
  Etcd etcd();

  /** hostloom.backend=zookeeper (io.hostloom:hostloom-zookeeper). */
  ZooKeeper zookeeper();

  /** hostloom.backend=azure (io.hostloom:hostloom-azure). */
  Azure azure();

  /** Leader electors per role (io.hostloom:hostloom-leadership). */
  Leadership leadership();

  /** {@code hostloom.warm-up.*}: preparing the backend at start-up. */
  @WithName("warm-up")
  WarmUp warmUp();

  /**
   * At start-up the backend connects and prepares what its first operation needs (Redis, Azure,
   * etcd, ZooKeeper, JDBC: each whose README says {@code BackendWarmUp}), so the first lock costs
   * what every later one does. A failure or timeout is logged as a warning and start-up goes on.
   */
  interface WarmUp {
    /** Whether start-up warms the backend up. */
    @WithDefault("true")
    boolean enabled();

    /** How long start-up waits for the warm-up before going on without it; zero or positive. */
    @WithDefault("10s")
    Duration timeout();
  }

  /** {@code hostloom.locking.*}: the kernel's {@code LockingOptions}. */
  interface Locking {
    /** The lock namespace: lower-case letters, digits and dashes; prefixes every key. Required. */
    Optional<String> namespace();

    /** Whether locks coordinate through the backend; false runs actions without locking. */
    Optional<Boolean> enabled();

    /** The lease of an acquisition that asks for none (kernel default 30 s). */
    Optional<Duration> defaultLease();

    /** The longest lease an acquisition or extension may get; longer requests are capped. */
    Optional<Duration> maxLease();

    /** How long automatic extension keeps a lock at most. */
    Optional<Duration> maxHold();

    /** Whether the last automatic extension ends the lease exactly at request + max-hold. */
    Optional<Boolean> strictMaxHold();

    /** Whether a waiting acquisition also tries when the backend signals a release. */
    Optional<Boolean> wakeOnRelease();

    /**
     * The retry policy between attempts: default, immediate:N, interval:NxD, linear:NxSTEP or
     * exponential:NxMIN..MAX[*FACTOR], optionally +JITTER, e.g. linear:10x50ms+50ms.
     */
    @WithDefault("default")
    String retry();

    /** Whether held locks are extended automatically (at half the remaining lease). */
    Optional<Boolean> autoExtend();

    /** Whether a nested acquisition of a key the same thread holds fails fast. */
    Optional<Boolean> detectReentrancy();

    /** The longest key accepted, in UTF-16 units. */
    OptionalInt maxKeyLength();
  }

  /** {@code hostloom.redis.*}: {@code RedisLockBackend.builder()}. */
  interface Redis {
    /**
     * redis://[user:password@]host[:port][/db], rediss://... or
     * redis-sentinel://host[:port][,host2[:port2]][/db]#masterName. Required with this backend.
     */
    Optional<String> uri();

    /** The bound of every Redis command and of connecting. */
    Optional<Duration> commandTimeout();

    /** The bound of the health probe's PING. */
    Optional<Duration> healthTimeout();

    /** How long a key's fencing counter outlives its last grant. */
    Optional<Duration> fenceRetention();

    /** The prefix of every Redis key the backend writes. */
    Optional<String> keyPrefix();
  }

  /** {@code hostloom.postgres.*}: {@code JdbcLockBackend.builder(dataSource)}. */
  interface Jdbc {
    /** The schema of the lock table; it must exist. */
    Optional<String> schema();

    /** The lock table. */
    Optional<String> table();

    /** Whether the table is created at start-up when missing. */
    @WithDefault("false")
    boolean createTable();

    /** The bound of every statement. */
    Optional<Duration> commandTimeout();

    /** The threads that run the blocking JDBC calls. */
    OptionalInt executorThreads();

    /** The most calls waiting for a thread; more are refused as unavailable. */
    OptionalInt maxQueuedCalls();
  }

  /** {@code hostloom.mariadb.*}: the JDBC settings plus release polling. */
  interface MariaDb extends Jdbc {
    /** Whether waiters poll the key for its release (MariaDB has no LISTEN/NOTIFY). */
    @WithDefault("false")
    boolean releasePolling();
  }

  /** {@code hostloom.etcd.*}: {@code EtcdLockBackend.builder()}. */
  interface Etcd {
    /** The client endpoints, e.g. http://etcd-1:2379,http://etcd-2:2379. Required. */
    Optional<List<String>> endpoints();

    /** The bound of every lock operation. */
    Optional<Duration> commandTimeout();

    /** The bound of the health probe's quorum read. */
    Optional<Duration> healthTimeout();

    /** The prefix of every etcd key the backend writes. */
    Optional<String> keyPrefix();
  }

  /** {@code hostloom.zookeeper.*}: {@code ZooKeeperLockBackend.builder()}. */
  interface ZooKeeper {
    /** The ensemble: host:port[,host:port...][/chroot]. Required. */
    Optional<String> connectString();

    /** The znode under which the backend keeps its data. */
    Optional<String> rootPath();

    /** The session timeout asked for. */
    Optional<Duration> sessionTimeout();

    /** The bound of every lock operation. */
    Optional<Duration> commandTimeout();

    /** The bound of the health probe's exists request. */
    Optional<Duration> healthTimeout();

    /** Whether waiters are woken by a watch on releases. */
    @WithDefault("true")
    boolean releaseSignal();
  }

  /** {@code hostloom.azure.*}: {@code AzureBlobLockBackend.builder()}. */
  interface Azure {
    /** A storage connection string; set this or service-uri. */
    Optional<String> connectionString();

    /** The blob service endpoint, used with DefaultAzureCredential; or connection-string. */
    Optional<URI> serviceUri();

    /** The dedicated container holding one blob per lock. */
    Optional<String> containerName();

    /** The bound of every storage call. */
    Optional<Duration> commandTimeout();

    /** The bound of the health probe's container call. */
    Optional<Duration> healthTimeout();

    /** How long a claim without a blob lease stays live. */
    Optional<Duration> unleasedClaimGrace();
  }

  /** {@code hostloom.leadership.*}. */
  interface Leadership {
    /** The roles to elect a leader for, by role name (the lock key is leader:&lt;role&gt;). */
    Map<String, Role> roles();
  }

  /** {@code hostloom.leadership.roles.<role>.*}; unset durations take LeadershipOptions'. */
  interface Role {
    /** Whether an elector runs for this role. */
    @WithDefault("true")
    boolean enabled();

    /** The lease of each grant and renewal. */
    Optional<Duration> lease();

    /** How often the leader renews; at most half the lease. */
    Optional<Duration> renewInterval();

    /** How long a follower waits between attempts. */
    Optional<Duration> retryInterval();

    /** The most added at random to each retry interval. */
    Optional<Duration> jitter();
  }
}
