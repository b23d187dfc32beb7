package io.hostloom.azure;

import java.time.Duration;

/**
 * The Azure lock backend was configured so that it cannot start. Thrown by {@link
 * AzureBlobLockBackend.Builder#build()}; the message says what to set and never contains the
 * connection string or other secrets.
 */
public final class AzureLockConfigurationException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private AzureLockConfigurationException(String message, Throwable cause) {
    super(message, cause);
  }

  static AzureLockConfigurationException noEndpoint() {
    return new AzureLockConfigurationException(
        "Azure lock backend: set either connectionString (e.g. \"UseDevelopmentStorage=true\" for"
            + " Azurite) or serviceUri (e.g. \"https://<account>.blob.core.windows.net\", with"
            + " DefaultAzureCredential or a credential of your own); neither was set",
        null);
  }

  static AzureLockConfigurationException graceTooShort(Duration grace, Duration commandTimeout) {
    return new AzureLockConfigurationException(
        "Azure lock backend: unleasedClaimGrace must be longer than commandTimeout + CLOCK_MARGIN ("
            + commandTimeout
            + " + "
            + AzureBlobLockBackend.CLOCK_MARGIN
            + "), or a claim whose lease request is only slow could be taken as abandoned, but was "
            + grace,
        null);
  }

  static AzureLockConfigurationException twoEndpoints() {
    return new AzureLockConfigurationException(
        "Azure lock backend: set connectionString or serviceUri, not both", null);
  }

  static AzureLockConfigurationException credentialWithoutServiceUri() {
    return new AzureLockConfigurationException(
        "Azure lock backend: a credential applies to serviceUri only; a connection string"
            + " carries its own key or SAS",
        null);
  }

  static AzureLockConfigurationException badConnectionString(RuntimeException cause) {
    // the SDK's message may quote the connection string: keep it out of ours and drop the cause
    return new AzureLockConfigurationException(
        "Azure lock backend: the connection string (or endpoint) was rejected by the Azure SDK ("
            + cause.getClass().getSimpleName()
            + "); expected e.g. \"UseDevelopmentStorage=true\" or"
            + " \"DefaultEndpointsProtocol=https;AccountName=...;AccountKey=...;"
            + "EndpointSuffix=core.windows.net\"",
        null);
  }
}
