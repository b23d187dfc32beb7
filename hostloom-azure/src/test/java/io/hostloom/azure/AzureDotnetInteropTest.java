package io.hostloom.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.LeaseDurationType;
import com.azure.storage.blob.models.LeaseStateType;
import io.hostloom.testkit.TestTiming;
import io.hostloom.wopi.WopiLockInfo;
import io.hostloom.wopi.WopiLockProvider;
import io.hostloom.wopi.WopiLockResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Java and .NET WopiHost instances sharing one lock container: locks written in the .NET layout by
 * hand are honoured by {@link AzureWopiLocks}, and locks it writes carry exactly what a .NET
 * instance reads and writes.
 */
class AzureDotnetInteropTest {
  private static final String GUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
  private static final String ROUND_TRIP =
      "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{7}\\+00:00";

  private static BlobContainerClient container;
  private static DotnetLayout dotnet;
  private static WopiLockProvider java;

  @BeforeAll
  static void start() {
    container = Azurite.shared().newContainer("interop");
    dotnet = new DotnetLayout(container);
    java =
        AzureWopiLocks.create(Azurite.shared().backend(container.getBlobContainerName()).build());
  }

  private static String newFileId() {
    return "docs/" + UUID.randomUUID() + "/Report ü.docx";
  }

  /** Expiry by the service's clock: a short .NET expiry, waited out on Azurite. */
  private static WopiLockProvider shortLived() {
    return AzureWopiLocks.create(
        Azurite.shared()
            .backend(container.getBlobContainerName())
            .wopiExpiry(Duration.ofSeconds(1))
            .build());
  }

  private static Map<String, String> metadata(String fileId) {
    return dotnet.blobOf(fileId).getProperties().getMetadata();
  }

  private static void assertLeasedInfinitely(BlobClient blob) {
    BlobProperties p = blob.getProperties();
    assertThat(p.getLeaseState()).isEqualTo(LeaseStateType.LEASED);
    assertThat(p.getLeaseDuration()).isEqualTo(LeaseDurationType.INFINITE);
  }

  @Test
  void aLockADotnetInstanceCreatedIsHonouredByEveryOperation() {
    String file = newFileId();
    String leaseId = dotnet.addLock(file, "lock-A", Instant.now());

    assertThat(java.getLock(file).map(WopiLockInfo::lockId)).contains("lock-A");
    WopiLockResult add = java.add(file, "lock-B");
    assertThat(add.success()).isFalse();
    assertThat(add.currentLockIdOrEmpty()).isEqualTo("lock-A");

    assertThat(java.refresh(file, "lock-A").success()).isTrue();
    Map<String, String> refreshed = metadata(file);
    assertThat(refreshed)
        .containsEntry("wopi_lock_id", "lock-A")
        .containsEntry("wopi_lease_id", leaseId);
    assertThat(refreshed.get("wopi_created")).matches(ROUND_TRIP);
    assertLeasedInfinitely(dotnet.blobOf(file));
    assertThat(dotnet.getLock(file, Instant.now())).contains("lock-A");

    assertThat(java.unlockAndRelock(file, "lock-C", "lock-A").success()).isTrue();
    assertThat(metadata(file))
        .containsEntry("wopi_lock_id", "lock-C")
        .containsEntry("wopi_lease_id", leaseId);
    assertThat(dotnet.getLock(file, Instant.now())).contains("lock-C");

    assertThat(java.remove(file, "lock-C").success()).isTrue();
    assertThat(java.getLock(file)).isEmpty();
    assertThat(dotnet.getLock(file, Instant.now())).as("what a .NET instance sees").isEmpty();
  }

  @Test
  void aLockWeCreateHasExactlyTheMetadataADotnetInstanceNeeds() {
    String file = newFileId();
    Instant before = Instant.now();
    assertThat(java.add(file, "{\"S\":\"AB12CD34\",\"F\":0}").success()).isTrue();

    BlobClient blob = dotnet.blobOf(file);
    assertThat(blob.getBlobName()).matches("[0-9a-f]{64}").isEqualTo(DotnetLayout.blobNameOf(file));
    assertThat(AzureBlobLockBackend.blobName(file)).isEqualTo(blob.getBlobName());
    Map<String, String> md = metadata(file);
    assertThat(md.get("wopi_lock_id")).isEqualTo("{\"S\":\"AB12CD34\",\"F\":0}");
    assertThat(md.get("wopi_lease_id")).matches(GUID);
    assertThat(md.get("wopi_created")).matches(ROUND_TRIP);
    Instant created = ClaimMetadata.parseCreated(md.get("wopi_created")).orElseThrow();
    assertThat(Duration.between(before, created).abs()).isLessThan(Duration.ofSeconds(5));
    assertThat(md.keySet()).allMatch(k -> k.startsWith("wopi_") || k.startsWith("hl_"));
    assertLeasedInfinitely(blob);
    assertThat(blob.getProperties().getBlobSize()).isZero();
    assertThat(dotnet.getLock(file, Instant.now())).contains("{\"S\":\"AB12CD34\",\"F\":0}");
  }

  @Test
  void aDotnetInstanceCanRefreshRelockAndRemoveOurLock() {
    String file = newFileId();
    assertThat(java.add(file, "lock-1").success()).isTrue();

    dotnet.update(file, null, Instant.now()); // .NET RefreshLock
    assertThat(java.getLock(file).map(WopiLockInfo::lockId)).contains("lock-1");
    assertThat(java.refresh(file, "lock-1").success()).isTrue();

    dotnet.update(file, "lock-2", Instant.now()); // .NET UnlockAndRelock
    assertThat(java.getLock(file).map(WopiLockInfo::lockId)).contains("lock-2");
    WopiLockResult stale = java.refresh(file, "lock-1");
    assertThat(stale.success()).isFalse();
    assertThat(stale.currentLockIdOrEmpty()).isEqualTo("lock-2");
    assertThat(java.refresh(file, "lock-2").success()).isTrue();

    dotnet.removeLock(file); // .NET RemoveLock
    assertThat(java.getLock(file)).isEmpty();
    assertThat(java.add(file, "lock-3").success()).isTrue();
  }

  @Test
  void aDotnetLockIsJudgedByTheServiceClockNotByItsWopiCreated() {
    // wopi_created is the .NET writer's wall clock: 31 minutes behind here, yet the service wrote
    // the claim just now (Last-Modified), so every Java instance sees it live
    String file = newFileId();
    dotnet.addLock(file, "skewed", Instant.now().minus(Duration.ofMinutes(31)));
    assertThat(java.getLock(file).map(WopiLockInfo::lockId)).contains("skewed");
    assertThat(java.add(file, "other").currentLockIdOrEmpty()).isEqualTo("skewed");
  }

  @Test
  void anExpiredDotnetLockIsEvictedOnGetAndTakenOverOnAdd() {
    WopiLockProvider shortLived = shortLived();
    Duration bound = Duration.ofSeconds(10);
    String evicted = newFileId();
    dotnet.addLock(evicted, "stale", Instant.now());
    TestTiming.await("expired and evicted", () -> shortLived.getLock(evicted).isEmpty(), bound);
    assertThat(dotnet.blobOf(evicted).exists()).as("evicted on GetLock").isFalse();

    String takenOver = newFileId();
    dotnet.addLock(takenOver, "stale", Instant.now());
    TestTiming.await("taken over", () -> shortLived.add(takenOver, "fresh").success(), bound);
    assertThat(java.getLock(takenOver).map(WopiLockInfo::lockId)).contains("fresh");
    assertThat(dotnet.getLock(takenOver, Instant.now())).contains("fresh");
    assertLeasedInfinitely(dotnet.blobOf(takenOver));
  }

  @Test
  void anExpiredLockWhoseRecordedLeaseIdIsWrongIsBrokenConditionallyAndTakenOver() {
    String file = newFileId();
    String wrong = UUID.randomUUID().toString();
    dotnet.upload(file, "stale", wrong, Instant.now());
    new com.azure.storage.blob.specialized.BlobLeaseClientBuilder()
        .blobClient(dotnet.blobOf(file))
        .leaseId(UUID.randomUUID().toString()) // not the one in the metadata
        .buildClient()
        .acquireLease(-1);

    WopiLockProvider shortLived = shortLived();
    TestTiming.await(
        "expired and taken over",
        () -> shortLived.add(file, "fresh").success(),
        Duration.ofSeconds(10));

    assertThat(metadata(file).get("wopi_lock_id")).isEqualTo("fresh");
    assertThat(metadata(file).get("wopi_lease_id")).isNotEqualTo(wrong);
    assertLeasedInfinitely(dotnet.blobOf(file));
    assertThat(java.refresh(file, "fresh").success()).isTrue();
  }

  @Test
  void lockIdsAreStoredRawForDotnetAndOnlyAnEncodedCopyGoesToAnHlField() {
    String tilde = newFileId();
    assertThat(java.add(tilde, "~tilde").success()).isTrue();
    assertThat(metadata(tilde))
        .containsEntry("wopi_lock_id", "~tilde")
        .doesNotContainKey("hl_data");
    assertThat(dotnet.getLock(tilde, Instant.now())).contains("~tilde");
    assertThat(java.getLock(tilde).map(WopiLockInfo::lockId)).contains("~tilde");

    // Azure cannot carry edge spaces in a header value: .NET sees the id without them (what an
    // HTTP server hands it for such a header), the exact id is kept in hl_data for Java hosts
    String padded = newFileId();
    assertThat(java.add(padded, " padded ").success()).isTrue();
    assertThat(metadata(padded).get("wopi_lock_id")).isEqualTo("padded");
    assertThat(metadata(padded).get("hl_data")).startsWith("~");
    assertThat(dotnet.getLock(padded, Instant.now())).contains("padded");
    assertThat(java.getLock(padded).map(WopiLockInfo::lockId)).contains(" padded ");
    assertThat(java.unlockAndRelock(padded, "~tilde", " padded ").success()).isTrue();
    assertThat(metadata(padded))
        .containsEntry("wopi_lock_id", "~tilde")
        .doesNotContainKey("hl_data");
    assertThat(java.getLock(padded).map(WopiLockInfo::lockId)).contains("~tilde");
  }

  @Test
  void aDotnetLockAddedWithADifferentIdUnderTheJsonComparerIsOwnedByItsSValue() {
    AzureBlobLockBackend json =
        Azurite.shared()
            .backend(container.getBlobContainerName())
            .wopiComparer(io.hostloom.wopi.WopiLockComparer.jsonShaped())
            .build();
    WopiLockProvider jsonLocks = AzureWopiLocks.create(json);
    String file = newFileId();
    dotnet.addLock(file, "{\"S\":\"abc\",\"F\":1}", Instant.now());

    // the same S with other properties is the same lock under the JSON-shaped comparer
    assertThat(jsonLocks.refresh(file, "{\"S\":\"abc\",\"F\":2,\"E\":3}").success()).isTrue();
    assertThat(java.refresh(file, "{\"S\":\"abc\",\"F\":2,\"E\":3}").success())
        .as("the ordinal provider disagrees")
        .isFalse();
    Optional<WopiLockInfo> lock = jsonLocks.getLock(file);
    assertThat(lock.map(WopiLockInfo::lockId)).contains("{\"S\":\"abc\",\"F\":1}");
  }
}
