package io.hostloom.azure;

import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.identity.DefaultAzureCredentialBuilder;
import com.azure.storage.blob.BlobContainerAsyncClient;
import com.azure.storage.blob.BlobServiceAsyncClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.BlobServiceVersion;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.BackendHealthProbe;
import io.hostloom.locking.spi.BackendWarmUp;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LosslessUtf8;
import io.hostloom.locking.spi.support.BackendArguments;
import io.hostloom.locking.spi.support.DelegatingLockBackend;
import io.hostloom.locking.spi.support.VersionedRecordLockBackend;
import io.hostloom.wopi.WopiLockComparer;
import java.net.URI;
import java.net.URISyntaxException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import reactor.core.publisher.Mono;

/**
 * A {@link LockBackend} over Azure Blob Storage: one zero-byte placeholder blob per key in a
 * dedicated container, an infinite blob lease, and the claim in the blob's metadata, in the layout
 * of .NET WopiHost's {@code AzureLockProvider} so Java and .NET hosts can share one container.
 *
 * <h2>Layout</h2>
 *
 * The blob of key {@code k} is named by the lowercase hex SHA-256 of {@code k}'s UTF-8 bytes
 * ({@link #blobName}). Its metadata: {@code wopi_lock_id} (the data), {@code wopi_lease_id} (the
 * blob's lease GUID), {@code wopi_created} (the instance's wall clock at the write, .NET round-trip
 * format; informational), and ours: {@code hl_v}, {@code hl_created}, {@code hl_owner}, {@code
 * hl_lease_ms}, {@code hl_epoch}, {@code hl_seq}, {@code hl_free}. Any instance, Java or .NET, can
 * refresh, relock or remove a lock another instance created: the lease id is in the metadata.
 *
 * <h2>How each operation is made atomic</h2>
 *
 * The operations are the generic {@link VersionedRecordLockBackend} over this module's
 * versioned-record store (the blob's state of a read is the version): it decides by the shared
 * lease rules and owns the loop described here. Every write is conditioned on the ETag of the read
 * it is based on ({@code If-Match}) and, when the blob is leased, carries the lease id. A write
 * that loses a race gets 412 and the operation reads again and decides again; nothing is ever
 * overwritten or deleted unconditionally. Creating a claim is a Put Blob with {@code If-None-Match:
 * *} followed by acquiring the lease under {@code If-Match}. Round trips in the uncontended case:
 * acquire 2 (3 when the owner acquires again or takes over an expired or released claim), extend 2,
 * release 2, replace 2, read 1 (2 when it evicts an expired claim).
 *
 * <h2>Time, leases and fencing</h2>
 *
 * Expiry is judged by the service's clock only: a claim written at {@code Last-Modified} with a
 * lease of {@code L} is expired when a response's {@code Date} reaches {@code Last-Modified + L + 1
 * s}. Both have whole-second resolution, so leases are rounded up to whole seconds ({@link
 * #MINIMUM_LEASE} is 1 s) and the extra second ({@link #CLOCK_MARGIN}) keeps any reader from seeing
 * a claim expire early; to other instances a lease of whole seconds therefore ends between {@code
 * L} and {@code L + 1 s} after the write. Fencing tokens are {@code epoch * 2^20 + grants on this
 * blob}, where the epoch is the second the blob was created; they strictly increase per key across
 * takeovers, replaces, and deletion of the blob (see the module README for the argument and its
 * assumptions).
 *
 * <h2>Claims written by .NET instances</h2>
 *
 * A claim without our fields (or rewritten by a .NET instance since we wrote it) is read as owner
 * {@code wopiComparer.identity(wopi_lock_id)} and data {@code wopi_lock_id}, expiring {@link
 * Builder#wopiExpiry wopiExpiry} after its Last-Modified (the service's clock, as for our own
 * claims; never its {@code wopi_created}). A claim whose blob has no lease (its writer died between
 * writing and leasing) expires {@link Builder#unleasedClaimGrace unleasedClaimGrace} after it was
 * written.
 *
 * <h2>Failures, timeouts, threads</h2>
 *
 * Every operation completes within {@link Builder#commandTimeout commandTimeout}, also when nobody
 * waits. SDK retries are off (one try per request): a retried conditional write whose first reply
 * was lost would come back as a false 412, and retries would blur whether a request can have been
 * applied. Failures complete the future with a {@link
 * io.hostloom.locking.spi.LockBackendException}: {@code UNAVAILABLE} when no connection could be
 * made and nothing had been written, {@code TIMEOUT} when the deadline passed, {@code OTHER}
 * otherwise. Futures complete on the SDK's I/O threads or Reactor's timer threads. Instances are
 * immutable and thread-safe; they hold no resources of their own beyond the SDK's shared HTTP
 * client, so there is nothing to close.
 *
 * <h2>Limits</h2>
 *
 * Owner and data share Azure's 8 KiB metadata limit with the fixed fields: an operation whose
 * encoded values would not fit is rejected with {@link IllegalArgumentException} before anything is
 * sent (printable ASCII costs a byte a character; other text about 4/3 of its UTF-8 bytes).
 */
public final class AzureBlobLockBackend extends DelegatingLockBackend
    implements BackendHealthProbe, BackendWarmUp {
  /** The default container, the .NET provider's default too. */
  public static final String DEFAULT_CONTAINER_NAME = "wopi-locks";

  /** The default bound on one whole operation, all its round trips included. */
  public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(5);

  /** The default bound on one health probe. */
  public static final Duration DEFAULT_HEALTH_TIMEOUT = Duration.ofSeconds(2);

  /** How long a claim whose blob has no lease stays live by default. */
  public static final Duration DEFAULT_UNLEASED_CLAIM_GRACE = Duration.ofSeconds(10);

  /** The lifetime of a claim written by a .NET instance: the WOPI lock expiry. */
  public static final Duration DEFAULT_WOPI_EXPIRY = Duration.ofMinutes(30);

  /** The shortest effective lease: leases are rounded up to whole seconds. */
  public static final Duration MINIMUM_LEASE = Duration.ofSeconds(1);

  /** Added to every expiry for the 1 s resolution of the service's {@code Date}/Last-Modified. */
  public static final Duration CLOCK_MARGIN = Duration.ofSeconds(BlobState.MARGIN_SECONDS);

  private final BlobServiceAsyncClient service;
  private final BlobContainerAsyncClient container;
  private final String containerName;
  private final Duration healthTimeout;
  private final Duration commandTimeout;
  private final WopiLockComparer wopiComparer;
  private final Duration wopiExpiry;
  private final AzureBlobRecordStore records;
  private final VersionedRecordLockBackend<BlobState> backend;

  private AzureBlobLockBackend(Builder b, BlobServiceAsyncClient service) {
    this.service = service;
    this.containerName = b.containerName;
    this.container = service.getBlobContainerAsyncClient(b.containerName);
    this.healthTimeout = b.healthTimeout;
    this.commandTimeout = b.commandTimeout;
    this.wopiComparer = b.wopiComparer;
    this.wopiExpiry = b.wopiExpiry;
    BlobState.Rules rules =
        new BlobState.Rules(wopiComparer::identity, wopiExpiry, b.unleasedClaimGrace());
    this.records = new AzureBlobRecordStore(container, b.createContainer, rules);
    this.backend =
        VersionedRecordLockBackend.builder(records)
            .name("azure-blob")
            .commandTimeout(b.commandTimeout)
            .build();
  }

  /** A builder; set a connection string, or a service URI (with an optional credential). */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The blob name of {@code key}: the lowercase hex SHA-256 of its UTF-8 bytes (64 characters), as
   * .NET WopiHost names the blob of a file id. A key with a lone surrogate, which UTF-8 cannot
   * encode, is hashed as WTF-8 (the surrogate as its 3-byte generalized UTF-8 form): distinct keys
   * always get distinct bytes, and never the bytes of a well-formed key.
   */
  public static String blobName(String key) {
    Objects.requireNonNull(key, "key");
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(sha.digest(LosslessUtf8.encode(key)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /** The container holding the lock blobs. */
  public String containerName() {
    return containerName;
  }

  /** The comparer whose identities are the owners of claims written by .NET instances. */
  public WopiLockComparer wopiComparer() {
    return wopiComparer;
  }

  /** How long a claim written by a .NET instance lives after its last write. */
  public Duration wopiExpiry() {
    return wopiExpiry;
  }

  @Override
  public String name() {
    return "azure-blob";
  }

  // ------------------------------------------------------------------ operations

  /** The five operations: the generic versioned-record backend over this module's blob store. */
  @Override
  protected LockBackend delegate() {
    return backend;
  }

  /**
   * Checks that the container answers, creating it first when {@link Builder#createContainer} is on
   * and this instance has not yet done so. Never completes exceptionally.
   */
  @Override
  public CompletableFuture<BackendHealth> checkHealth() {
    String what = "Azure Blob container '" + containerName + "' of account " + accountName();
    return Mono.defer(records::ensureContainer)
        .then(container.getPropertiesWithResponse(null))
        .map(r -> BackendHealth.healthy(what + " answers"))
        .timeout(healthTimeout)
        .onErrorResume(
            e ->
                Mono.just(
                    BackendHealth.unhealthy(
                        what + ": " + AzureFailures.kindOf(e) + ", " + AzureFailures.describe(e))))
        .toFuture();
  }

  /**
   * Connects now instead of on the first operation: creates the container when {@link
   * Builder#createContainer} is on and this instance has not yet done so, then reads the
   * container's properties, which opens the HTTP connection (TLS where used) and loads the client's
   * request and reply handling. Without it the first operation pays for all of that (seconds on a
   * loaded machine, see the module's README). Bounded by {@link Builder#commandTimeout
   * commandTimeout}; fails with a {@code LockBackendException} ({@code UNAVAILABLE}: nothing
   * answered; {@code TIMEOUT}: no answer within the bound; {@code OTHER}: an HTTP error, such as a
   * missing container this instance may not create). A failed warm-up changes nothing.
   */
  @Override
  public CompletableFuture<Void> warmUp() {
    return Mono.defer(records::ensureContainer)
        .then(container.getPropertiesWithResponse(null))
        .timeout(commandTimeout)
        .onErrorMap(e -> AzureFailures.toBackendException("warm-up", e, false))
        .then()
        .toFuture();
  }

  private String accountName() {
    try {
      return service.getAccountName();
    } catch (RuntimeException e) {
      return "?";
    }
  }

  /**
   * Builds an {@link AzureBlobLockBackend}. Exactly one of {@link #connectionString} or {@link
   * #serviceUri} must be set. Every setter validates its value; {@link #build()} checks the
   * combination. Not thread-safe.
   */
  public static final class Builder {
    private static final Pattern CONTAINER_NAME =
        Pattern.compile("[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]");

    private String connectionString;
    private URI serviceUri;
    private TokenCredential credential;
    private String containerName = DEFAULT_CONTAINER_NAME;
    private boolean createContainer = true;
    private Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;
    private Duration healthTimeout = DEFAULT_HEALTH_TIMEOUT;
    private Duration unleasedClaimGrace; // null: derived from the command timeout
    private WopiLockComparer wopiComparer = WopiLockComparer.ordinal();
    private Duration wopiExpiry = DEFAULT_WOPI_EXPIRY;
    private BlobServiceVersion serviceVersion;
    private HttpClient httpClient;
    private final List<HttpPipelinePolicy> policies = new ArrayList<>();

    private Builder() {}

    /**
     * An Azure Storage connection string, e.g. {@code UseDevelopmentStorage=true} for Azurite on
     * its default ports, or one with {@code AccountName}/{@code AccountKey}/{@code BlobEndpoint} or
     * a SAS. Never logged or put in a message.
     *
     * @throws IllegalArgumentException when blank
     */
    public Builder connectionString(String connectionString) {
      Objects.requireNonNull(connectionString, "connectionString");
      if (connectionString.isBlank()) {
        throw new IllegalArgumentException("connectionString must not be blank");
      }
      this.connectionString = connectionString;
      return this;
    }

    /**
     * The Blob service endpoint, e.g. {@code https://myaccount.blob.core.windows.net}, used with
     * {@link #credential} (default: azure-identity's {@code DefaultAzureCredential}).
     *
     * @throws IllegalArgumentException when not an absolute http(s) URI without query or fragment
     */
    public Builder serviceUri(String serviceUri) {
      Objects.requireNonNull(serviceUri, "serviceUri");
      URI uri;
      try {
        uri = new URI(serviceUri);
      } catch (URISyntaxException e) {
        throw new IllegalArgumentException("serviceUri must be a URI but was " + serviceUri, e);
      }
      return serviceUri(uri);
    }

    /** As {@link #serviceUri(String)}. */
    public Builder serviceUri(URI serviceUri) {
      Objects.requireNonNull(serviceUri, "serviceUri");
      String scheme = serviceUri.getScheme();
      if (!serviceUri.isAbsolute()
          || serviceUri.getHost() == null
          || !("https".equalsIgnoreCase(scheme) || "http".equalsIgnoreCase(scheme))
          || serviceUri.getRawQuery() != null
          || serviceUri.getRawFragment() != null) {
        throw new IllegalArgumentException(
            "serviceUri must be an absolute http(s) URI without query or fragment (put SAS"
                + " tokens in a connection string) but was "
                + serviceUri.getScheme()
                + "://"
                + serviceUri.getHost()
                + "/...");
      }
      this.serviceUri = serviceUri;
      return this;
    }

    /**
     * The credential for {@link #serviceUri}; default a new {@code DefaultAzureCredential}. Azure
     * sends bearer tokens over https only.
     */
    public Builder credential(TokenCredential credential) {
      this.credential = Objects.requireNonNull(credential, "credential");
      return this;
    }

    /**
     * The lock container; default {@value AzureBlobLockBackend#DEFAULT_CONTAINER_NAME}. Give kernel
     * locks and WOPI locks separate containers (or distinct key prefixes): keys are hashed into one
     * name space per container.
     *
     * @throws IllegalArgumentException when not a valid container name (3-63 lowercase letters,
     *     digits and single hyphens, starting and ending with a letter or digit)
     */
    public Builder containerName(String containerName) {
      Objects.requireNonNull(containerName, "containerName");
      if (!CONTAINER_NAME.matcher(containerName).matches()) {
        throw new IllegalArgumentException(
            "containerName must be 3-63 lowercase letters, digits and single hyphens, starting"
                + " and ending with a letter or digit, but was '"
                + containerName
                + "'");
      }
      this.containerName = containerName;
      return this;
    }

    /**
     * Whether the first operation creates the container when it is missing (one Create Container
     * request per instance, which needs the right to create containers); default true.
     */
    public Builder createContainer(boolean createContainer) {
      this.createContainer = createContainer;
      return this;
    }

    /**
     * The bound on one whole operation, every round trip included; default {@link
     * #DEFAULT_COMMAND_TIMEOUT} (5 s). Each HTTP request also gets it, rounded up to whole seconds
     * (the SDK's minimum per-try timeout is 1 s).
     *
     * @throws IllegalArgumentException when not positive
     */
    public Builder commandTimeout(Duration commandTimeout) {
      this.commandTimeout = BackendArguments.positive("commandTimeout", commandTimeout);
      return this;
    }

    /**
     * The bound on one {@link AzureBlobLockBackend#checkHealth()}; default {@link
     * #DEFAULT_HEALTH_TIMEOUT} (2 s).
     *
     * @throws IllegalArgumentException when not positive
     */
    public Builder healthTimeout(Duration healthTimeout) {
      this.healthTimeout = BackendArguments.positive("healthTimeout", healthTimeout);
      return this;
    }

    /**
     * How long a claim whose blob carries no lease stays live after it was written; default {@link
     * #DEFAULT_UNLEASED_CLAIM_GRACE} (10 s), or twice the command timeout plus {@link
     * #CLOCK_MARGIN} when that is longer. Such a claim is left by a writer that died between
     * writing the claim and leasing the blob; a live writer leases within its command timeout. The
     * grace must therefore be longer than {@code commandTimeout + CLOCK_MARGIN} (checked by {@link
     * #build()}): otherwise a competitor could judge the claim of a writer whose lease request is
     * merely slow as abandoned. Every instance sharing a container should use the same grace and a
     * command timeout no longer than any instance's grace minus the margin.
     *
     * @throws IllegalArgumentException when not positive
     */
    public Builder unleasedClaimGrace(Duration unleasedClaimGrace) {
      this.unleasedClaimGrace = BackendArguments.positive("unleasedClaimGrace", unleasedClaimGrace);
      return this;
    }

    /**
     * The comparer whose {@link WopiLockComparer#identity identity} of {@code wopi_lock_id} is the
     * owner of a claim written by a .NET instance; default {@link WopiLockComparer#ordinal()}. Must
     * be the comparer of the {@code WopiLockProvider} over this backend ({@link AzureWopiLocks}
     * wires both).
     */
    public Builder wopiComparer(WopiLockComparer wopiComparer) {
      this.wopiComparer = Objects.requireNonNull(wopiComparer, "wopiComparer");
      return this;
    }

    /**
     * How long a claim written by a .NET instance lives after its Last-Modified; default {@link
     * #DEFAULT_WOPI_EXPIRY} (30 minutes, the WOPI rule).
     *
     * @throws IllegalArgumentException when not positive
     */
    public Builder wopiExpiry(Duration wopiExpiry) {
      this.wopiExpiry = BackendArguments.positive("wopiExpiry", wopiExpiry);
      return this;
    }

    /** The REST API version the client speaks; default the SDK's latest. */
    public Builder serviceVersion(BlobServiceVersion serviceVersion) {
      this.serviceVersion = Objects.requireNonNull(serviceVersion, "serviceVersion");
      return this;
    }

    /** The HTTP client (proxies, connection pools); default the SDK's shared Netty client. */
    public Builder httpClient(HttpClient httpClient) {
      this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
      return this;
    }

    /** Adds a pipeline policy (telemetry, request counting); it sees every request. */
    public Builder addPolicy(HttpPipelinePolicy policy) {
      policies.add(Objects.requireNonNull(policy, "policy"));
      return this;
    }

    /**
     * Builds the backend. Nothing is sent yet: the container is created (if enabled) by the first
     * operation or health check.
     *
     * @throws AzureLockConfigurationException when neither or both of connection string and service
     *     URI are set, a credential is set without a service URI, the connection string is
     *     malformed, or {@link #unleasedClaimGrace} is not longer than {@code commandTimeout +
     *     CLOCK_MARGIN}
     */
    public AzureBlobLockBackend build() {
      if (unleasedClaimGrace().compareTo(commandTimeout.plus(CLOCK_MARGIN)) <= 0) {
        throw AzureLockConfigurationException.graceTooShort(unleasedClaimGrace(), commandTimeout);
      }
      if (connectionString == null && serviceUri == null) {
        throw AzureLockConfigurationException.noEndpoint();
      }
      if (connectionString != null && serviceUri != null) {
        throw AzureLockConfigurationException.twoEndpoints();
      }
      if (connectionString != null && credential != null) {
        throw AzureLockConfigurationException.credentialWithoutServiceUri();
      }
      BlobServiceClientBuilder client =
          new BlobServiceClientBuilder()
              .retryOptions(
                  new RequestRetryOptions(
                      RetryPolicyType.FIXED,
                      1, // one try: see the class comment
                      Duration.ofSeconds(Math.max(1, BlobState.ceilSeconds(commandTimeout))),
                      null,
                      null,
                      null));
      if (connectionString != null) {
        try {
          client.connectionString(connectionString);
        } catch (RuntimeException e) {
          throw AzureLockConfigurationException.badConnectionString(e);
        }
      } else {
        client
            .endpoint(serviceUri.toString())
            .credential(
                credential != null ? credential : new DefaultAzureCredentialBuilder().build());
      }
      if (serviceVersion != null) {
        client.serviceVersion(serviceVersion);
      }
      if (httpClient != null) {
        client.httpClient(httpClient);
      }
      policies.forEach(client::addPolicy);
      BlobServiceAsyncClient service;
      try {
        service = client.buildAsyncClient();
      } catch (RuntimeException e) {
        throw AzureLockConfigurationException.badConnectionString(e);
      }
      return new AzureBlobLockBackend(this, service);
    }

    private Duration unleasedClaimGrace() {
      if (unleasedClaimGrace != null) {
        return unleasedClaimGrace;
      }
      Duration derived = commandTimeout.multipliedBy(2).plus(CLOCK_MARGIN);
      return derived.compareTo(DEFAULT_UNLEASED_CLAIM_GRACE) > 0
          ? derived
          : DEFAULT_UNLEASED_CLAIM_GRACE;
    }
  }
}
