package io.hostloom.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.capability.HealthProbeSuite;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link AzureBlobLockBackend#checkHealth()} (Get Container Properties, creating the container
 * first once) against the shared Azurite: the testkit's {@link HealthProbeSuite} (the account key
 * is the secret), plus a missing container that the instance may not create.
 */
class AzureHealthProbeTest extends HealthProbeSuite {
  private static final String CONTAINER = "health-ok";

  @Override
  protected InetSocketAddress serverAddress() {
    return new InetSocketAddress("127.0.0.1", Azurite.shared().port());
  }

  @Override
  protected LockBackend newBackend(InetSocketAddress at) {
    return builderAt(at).build();
  }

  @Override
  protected List<String> secrets() {
    return List.of(Azurite.KEY);
  }

  private static AzureBlobLockBackend.Builder builderAt(InetSocketAddress at) {
    return AzureBlobLockBackend.builder()
        .connectionString(Azurite.connectionStringAt(at.getHostString(), at.getPort()))
        .containerName(CONTAINER)
        .commandTimeout(Duration.ofSeconds(2))
        .healthTimeout(Duration.ofSeconds(2));
  }

  @Test
  void theHealthyDescriptionNamesTheContainer() {
    BackendHealth h = probe(instance(serverAddress()), serverAddress());
    assertThat(h.healthy()).as(h.description()).isTrue();
    assertThat(h.description()).contains(CONTAINER);
  }

  @Test
  void aMissingContainerIsUnhealthyWhenTheInstanceMayNotCreateIt() {
    AzureBlobLockBackend missing =
        Azurite.shared().backend("health-missing").createContainer(false).build();
    BackendHealth h = probe(missing, serverAddress());
    assertThat(h.healthy()).isFalse();
    assertThat(h.description()).contains("404");
  }
}
