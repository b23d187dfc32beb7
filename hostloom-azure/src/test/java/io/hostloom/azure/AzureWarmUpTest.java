package io.hostloom.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.capability.WarmUpSuite;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * {@link AzureBlobLockBackend#warmUp()} against the shared Azurite: the testkit's {@link
 * WarmUpSuite}, plus the container it creates, and a missing container the instance may not create,
 * which fails the warm-up as it would fail the first operation.
 */
class AzureWarmUpTest extends WarmUpSuite {
  @Override
  protected InetSocketAddress serverAddress() {
    return new InetSocketAddress("127.0.0.1", Azurite.shared().port());
  }

  @Override
  protected LockBackend newBackend(InetSocketAddress at) {
    return AzureBlobLockBackend.builder()
        .connectionString(Azurite.connectionStringAt(at.getHostString(), at.getPort()))
        .containerName("warm-up")
        .commandTimeout(Duration.ofSeconds(2))
        .build();
  }

  @Test
  void theWarmUpCreatesTheContainer() {
    String name = "warm-" + UUID.randomUUID().toString().substring(0, 8);
    AzureBlobLockBackend b = Azurite.shared().backend(name).build();
    TestTiming.get(b.warmUp(), Duration.ofSeconds(30));
    assertThat(Azurite.shared().rawClient().getBlobContainerClient(name).exists()).isTrue();
  }

  @Test
  void aMissingContainerTheInstanceMayNotCreateFailsTheWarmUp() {
    AzureBlobLockBackend b =
        Azurite.shared().backend("warm-up-missing").createContainer(false).build();
    Throwable t = TestTiming.get(b.warmUp().handle((v, e) -> e), Duration.ofSeconds(30));
    Throwable cause = t instanceof CompletionException c ? c.getCause() : t;
    assertThat(cause).isInstanceOf(LockBackendException.class);
    assertThat(((LockBackendException) cause).kind()).isEqualTo(LockFailureKind.OTHER);
    assertThat(cause.getMessage()).contains("404");
  }
}
