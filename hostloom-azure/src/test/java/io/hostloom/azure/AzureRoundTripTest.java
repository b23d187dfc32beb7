package io.hostloom.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.capability.RoundTripBudget;
import io.hostloom.testkit.capability.RoundTripBudget.Case;
import io.hostloom.testkit.capability.RoundTripBudgetSuite;
import io.hostloom.wopi.WopiLockProtocol;
import io.hostloom.wopi.WopiLockResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Round trips per operation, counted on the wire by a pipeline policy ({@link RequestCounter})
 * against a real Azurite: the testkit's {@link RoundTripBudgetSuite} with Azure's budget and the
 * exact REST operations of each case, plus Azure's own cases (the container created once, a release
 * that deletes, a released claim taken over, WOPI requests). The table is also written to {@code
 * target/azure-round-trips.md} (the README's table comes from there).
 */
class AzureRoundTripTest extends RoundTripBudgetSuite {
  private static final Duration LONG = Duration.ofSeconds(60);
  private static final List<String> READ = List.of("GetBlobProperties");
  private static final List<String> READ_THEN_WRITE =
      List.of("GetBlobProperties", "SetBlobMetadata");

  private final String container =
      Azurite.shared().newContainer("roundtrips").getBlobContainerName();
  private AzureBlobLockBackend backend;

  @Override
  protected RoundTripBudget budget() {
    return RoundTripBudget.everyCase(1)
        .with(Case.ACQUIRE_FREE, 2)
        .with(Case.ACQUIRE_HELD, 2)
        .with(Case.ACQUIRE_SAME_OWNER, 3)
        .with(Case.ACQUIRE_EXPIRED, 3)
        .with(Case.EXTEND, 2)
        .with(Case.REPLACE, 2)
        .with(Case.RELEASE, 2)
        .with(Case.READ_EXPIRED, 2);
  }

  @Override
  protected CountedBackend newCountedBackend() {
    RequestCounter counter = new RequestCounter();
    backend = Azurite.shared().backend(container).addPolicy(counter).build();
    return new CountedBackend(backend, List.of(counter));
  }

  @Override
  protected LockBackend newBackend() {
    return Azurite.shared().backend(container).build();
  }

  @Override
  protected Duration shortLease() {
    return Duration.ofSeconds(1); // whole seconds on Azure
  }

  @Override
  protected Duration expiryWait() {
    return Duration.ofMillis(2100); // the lease, the 1 s clock margin, a little more
  }

  @Override
  protected Optional<Path> tableFile() {
    return Optional.of(Path.of("target", "azure-round-trips.md"));
  }

  @Override
  protected void checkRoundTrips(Case c, List<String> requests) {
    switch (c) {
      case ACQUIRE_FREE -> assertThat(requests).containsExactly("PutBlob", "LeaseBlob:acquire");
      case ACQUIRE_HELD -> assertThat(requests).containsExactly("PutBlob", "GetBlobProperties");
      case ACQUIRE_SAME_OWNER, ACQUIRE_EXPIRED ->
          assertThat(requests).containsExactly("PutBlob", "GetBlobProperties", "SetBlobMetadata");
      case EXTEND, REPLACE -> assertThat(requests).isEqualTo(READ_THEN_WRITE);
      case RELEASE -> {
        // a blob created in this second of the service clock is kept as a released claim
        assertThat(requests).startsWith("GetBlobProperties");
        assertThat(requests.get(1)).isIn("SetBlobMetadata", "DeleteBlob");
      }
      case READ_EXPIRED -> assertThat(requests).containsExactly("GetBlobProperties", "DeleteBlob");
      case HEALTH_PROBE -> assertThat(requests).containsExactly("GETContainer");
      default -> assertThat(requests).as(c.label()).isEqualTo(READ);
    }
  }

  private static String key() {
    return "rt-" + UUID.randomUUID();
  }

  /** Lets the service's clock leave the second of the last write (release then deletes). */
  private static void nextServiceSecond() {
    TestTiming.pass(Duration.ofMillis(1100));
  }

  @Test
  void containerIsCreatedOncePerInstance() {
    RequestCounter fresh = new RequestCounter();
    String name = "rt-fresh-" + UUID.randomUUID().toString().substring(0, 8);
    AzureBlobLockBackend b = Azurite.shared().backend(name).addPolicy(fresh).build();
    get(b.read(key()));
    get(b.read(key()));
    assertThat(fresh.requests())
        .containsExactly("CreateContainer", "GetBlobProperties", "GetBlobProperties");
  }

  @Test
  void aReleaseOfABlobOlderThanASecondDeletesIt() {
    String k = key();
    get(setup().acquire(k, "a", "d", LONG));
    nextServiceSecond();
    assertThat(
            assertRoundTrips(
                "release (blob older than 1 s: deleted)", 2, () -> get(backend.release(k, "a"))))
        .containsExactly("GetBlobProperties", "DeleteBlob");
  }

  @Test
  void acquireOverAReleasedClaimIsThree() {
    String k;
    // plant a released claim: a release in the second the blob was created keeps the blob
    AcquireOutcome first;
    do {
      k = key();
      first = get(setup().acquire(k, "a", "d", LONG));
      get(setup().release(k, "a"));
    } while (!Azurite.shared()
        .rawClient()
        .getBlobContainerClient(backend.containerName())
        .getBlobClient(AzureBlobLockBackend.blobName(k))
        .exists());
    String released = k;
    assertThat(
            assertRoundTrips(
                "acquire, over a released claim",
                3,
                () -> get(backend.acquire(released, "b", "d", LONG))))
        .containsExactly("PutBlob", "GetBlobProperties", "SetBlobMetadata");
    assertThat(get(backend.read(released)).orElseThrow().fencingToken())
        .isGreaterThan(first.fencingToken());
  }

  @Test
  void wopiRequestsThroughAzureWopiLocks() {
    WopiLockProtocol wopi = new WopiLockProtocol(AzureWopiLocks.create(backend));
    String file = "rt-file-" + UUID.randomUUID();
    wopiRequest("WOPI GetLock, unlocked", 1, () -> wopi.getLock(file), 200);
    wopiRequest("WOPI Lock, unlocked", 2, () -> wopi.lock(file, "L1"), 200);
    wopiRequest("WOPI Lock, same id (refresh)", 3, () -> wopi.lock(file, "L1"), 200);
    wopiRequest("WOPI Lock, other id (409)", 2, () -> wopi.lock(file, "L2"), 409);
    wopiRequest("WOPI GetLock, locked", 1, () -> wopi.getLock(file), 200);
    wopiRequest("WOPI RefreshLock", 2, () -> wopi.refreshLock(file, "L1"), 200);
    assertThat(
            wopiRequest(
                "WOPI RefreshLock, other id (409)", 1, () -> wopi.refreshLock(file, "L2"), 409))
        .containsExactly("GetBlobProperties");
    wopiRequest("WOPI UnlockAndRelock", 2, () -> wopi.unlockAndRelock(file, "L2", "L1"), 200);
    wopiRequest("WOPI PutFile lock check", 1, () -> wopi.checkPutFile(file, "L2", () -> 10), 200);
    assertThat(wopiRequest("WOPI Unlock, other id (409)", 1, () -> wopi.unlock(file, "L1"), 409))
        .containsExactly("GetBlobProperties");
    nextServiceSecond();
    wopiRequest("WOPI Unlock", 2, () -> wopi.unlock(file, "L2"), 200);
  }

  private List<String> wopiRequest(
      String name, int roundTrips, Supplier<WopiLockResponse> request, int status) {
    return assertRoundTrips(
        name, roundTrips, () -> assertThat(request.get().status()).as(name).isEqualTo(status));
  }
}
