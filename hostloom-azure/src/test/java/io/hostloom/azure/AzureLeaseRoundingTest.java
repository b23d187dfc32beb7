package io.hostloom.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.blob.BlobContainerClient;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Leases reach the blob rounded <em>up</em> to whole milliseconds, as the SPI says: a lease a
 * fraction of a millisecond past a whole second must not be stored (and judged) as the whole
 * second. The old code truncated ({@code toMillis()}): 1000.5 ms was stored as 1000 ms, so the
 * claim could expire a second early to other instances. On Azurite.
 */
class AzureLeaseRoundingTest {
  private static final Duration JUST_PAST_A_SECOND = Duration.ofMillis(1000).plusNanos(500_000);

  private final BlobContainerClient container = Azurite.shared().newContainer("lease-rounding");
  private final AzureBlobLockBackend backend =
      Azurite.shared().backend(container.getBlobContainerName()).build();

  @Test
  void everyWriteStoresTheLeaseRoundedUp() throws Exception {
    assertThat(backend.acquire("k", "me", "", JUST_PAST_A_SECOND).get().granted()).isTrue();
    assertThat(storedLeaseMillis("k")).as("acquire").isEqualTo("1001");

    assertThat(backend.extend("k", "me", Duration.ofNanos(2_000_000_001)).get().extended())
        .isTrue();
    assertThat(storedLeaseMillis("k")).as("extend").isEqualTo("2001");

    assertThat(backend.replace("k", "me", "you", "", Duration.ofNanos(1)).get().replaced())
        .isTrue();
    assertThat(storedLeaseMillis("k")).as("replace, below a millisecond").isEqualTo("1");
  }

  private String storedLeaseMillis(String key) {
    Map<String, String> md = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    md.putAll(
        container.getBlobClient(AzureBlobLockBackend.blobName(key)).getProperties().getMetadata());
    return md.get(ClaimMetadata.LEASE_MILLIS);
  }
}
