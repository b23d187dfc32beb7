package io.hostloom.springboot.backend.azure;

import io.hostloom.azure.AzureBlobLockBackend;
import java.net.URI;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The Azure Blob backend's settings (hostloom.backend=azure, module io.hostloom:hostloom-azure).
 * Defaults are the backend's {@code DEFAULT_*} constants; every other builder option (a credential
 * of your own, HTTP policies, the service version) is reachable through an {@link
 * AzureBlobLockBackendBuilderCustomizer} bean.
 */
@ConfigurationProperties("hostloom.azure")
public class AzureBackendProperties {
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

  /** The dedicated container holding one blob per lock. */
  private String containerName = AzureBlobLockBackend.DEFAULT_CONTAINER_NAME;

  /** The bound of every storage call. */
  private Duration commandTimeout = AzureBlobLockBackend.DEFAULT_COMMAND_TIMEOUT;

  /** The bound of the health probe's container call. */
  private Duration healthTimeout = AzureBlobLockBackend.DEFAULT_HEALTH_TIMEOUT;

  /**
   * How long a claim whose blob carries no lease (left by a writer that died between writing the
   * claim and leasing the blob) stays live; only how soon such a claim is reclaimed.
   */
  private Duration unleasedClaimGrace = AzureBlobLockBackend.DEFAULT_UNLEASED_CLAIM_GRACE;

  /**
   * WOPI lock blobs named as .NET WopiHost names them (lowercase hex SHA-256 of the file id), so
   * Java and .NET hosts share one lock container; hostloom.wopi.key-prefix is then not used. false:
   * the blob of key-prefix + file id, which .NET instances do not see.
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

  public Duration getHealthTimeout() {
    return healthTimeout;
  }

  public void setHealthTimeout(Duration healthTimeout) {
    this.healthTimeout = healthTimeout;
  }

  public Duration getUnleasedClaimGrace() {
    return unleasedClaimGrace;
  }

  public void setUnleasedClaimGrace(Duration unleasedClaimGrace) {
    this.unleasedClaimGrace = unleasedClaimGrace;
  }
}
