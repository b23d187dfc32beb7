package io.hostloom.quarkus.internal;

import io.hostloom.azure.AzureBlobLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.quarkus.HostLoomConfig;
import java.util.List;

/**
 * {@code hostloom.backend=azure}: an {@link AzureBlobLockBackend} on a connection string or a
 * service URI (with DefaultAzureCredential).
 */
final class AzureFactory {
  private AzureFactory() {}

  static LockBackend create(HostLoomConfig.Azure c) {
    AzureBlobLockBackend.Builder b = AzureBlobLockBackend.builder();
    String connection = c.connectionString().map(String::strip).orElse("");
    if (!connection.isEmpty() && c.serviceUri().isPresent()) {
      throw HostLoomConfigurationException.of(
          List.of("set hostloom.azure.connection-string or hostloom.azure.service-uri, not both"));
    }
    if (!connection.isEmpty()) {
      b.connectionString(connection);
    } else if (c.serviceUri().isPresent()) {
      b.serviceUri(c.serviceUri().get());
    } else {
      throw HostLoomConfigurationException.of(
          List.of(
              "hostloom.azure.connection-string or hostloom.azure.service-uri is required with"
                  + " this backend, e.g. UseDevelopmentStorage=true"));
    }
    c.containerName().ifPresent(b::containerName);
    c.commandTimeout().ifPresent(b::commandTimeout);
    c.healthTimeout().ifPresent(b::healthTimeout);
    c.unleasedClaimGrace().ifPresent(b::unleasedClaimGrace);
    return b.build();
  }
}
