package io.hostloom.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.testkit.TestTiming;
import io.hostloom.wopi.WopiLockProtocol;
import io.hostloom.wopi.WopiLockResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Round trips per operation, counted on the wire by a pipeline policy against a real Azurite. The
 * sequences are also written to {@code target/azure-round-trips.md} (the README's table comes from
 * there).
 */
class AzureRoundTripTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final Duration LONG = Duration.ofSeconds(60);
  private static final Map<String, List<String>> MEASURED = new TreeMap<>();

  private static RequestCounter counter;
  private static AzureBlobLockBackend backend;
  private static AzureBlobLockBackend other;

  @BeforeAll
  static void start() {
    String container = Azurite.shared().newContainer("roundtrips").getBlobContainerName();
    counter = new RequestCounter();
    backend = Azurite.shared().backend(container).addPolicy(counter).build();
    other = Azurite.shared().backend(container).build();
    get(backend.read("warm-up")); // the once-per-instance Create Container is not counted below
  }

  @AfterAll
  static void writeTable() throws IOException {
    StringBuilder md = new StringBuilder("| case | round trips | requests |\n|---|---|---|\n");
    MEASURED.forEach(
        (name, requests) ->
            md.append("| ")
                .append(name)
                .append(" | ")
                .append(requests.size())
                .append(" | ")
                .append(String.join(", ", requests))
                .append(" |\n"));
    Path out = Path.of("target", "azure-round-trips.md");
    Files.createDirectories(out.getParent());
    Files.writeString(out, md.toString(), StandardCharsets.UTF_8);
  }

  private static <T> T get(CompletableFuture<T> f) {
    return TestTiming.get(f, TIMEOUT);
  }

  /** Runs {@code op} on the counted backend and returns the requests it sent. */
  private static <T> List<String> measure(String name, Supplier<CompletableFuture<T>> op) {
    counter.reset();
    get(op.get());
    List<String> requests = counter.requests();
    MEASURED.put(name, requests);
    return requests;
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
    String container = "rt-fresh-" + UUID.randomUUID().toString().substring(0, 8);
    AzureBlobLockBackend b = Azurite.shared().backend(container).addPolicy(fresh).build();
    get(b.read(key()));
    get(b.read(key()));
    assertThat(fresh.requests())
        .containsExactly("CreateContainer", "GetBlobProperties", "GetBlobProperties");
  }

  @Test
  void acquireOfAFreeKeyIsTwo() {
    assertThat(measure("acquire, free key", () -> backend.acquire(key(), "a", "d", LONG)))
        .containsExactly("PutBlob", "LeaseBlob:acquire");
  }

  @Test
  void acquireOfAHeldKeyIsTwo() {
    String k = key();
    get(other.acquire(k, "holder", "d", LONG));
    assertThat(measure("acquire, held by another owner", () -> backend.acquire(k, "b", "d", LONG)))
        .containsExactly("PutBlob", "GetBlobProperties");
  }

  @Test
  void acquireByTheOwnerAgainIsThree() {
    String k = key();
    get(other.acquire(k, "a", "d", LONG));
    assertThat(measure("acquire, same owner again", () -> backend.acquire(k, "a", "d", LONG)))
        .containsExactly("PutBlob", "GetBlobProperties", "SetBlobMetadata");
  }

  @Test
  void takeoverOfAnExpiredClaimIsThree() {
    String k = key();
    get(other.acquire(k, "dead", "d", Duration.ofSeconds(1)));
    TestTiming.pass(Duration.ofMillis(2100)); // expired (lease + clock margin), not yet evicted
    List<String> r =
        measure("acquire, takeover of an expired claim", () -> backend.acquire(k, "b", "d", LONG));
    assertThat(r).containsExactly("PutBlob", "GetBlobProperties", "SetBlobMetadata");
  }

  @Test
  void extendIsTwo() {
    String k = key();
    get(other.acquire(k, "a", "d", LONG));
    assertThat(measure("extend", () -> backend.extend(k, "a", LONG)))
        .containsExactly("GetBlobProperties", "SetBlobMetadata");
  }

  @Test
  void replaceIsTwo() {
    String k = key();
    get(other.acquire(k, "a", "d", LONG));
    assertThat(measure("replace", () -> backend.replace(k, "a", "b", "e", LONG)))
        .containsExactly("GetBlobProperties", "SetBlobMetadata");
  }

  @Test
  void releaseIsTwoEitherWay() {
    String k = key();
    get(other.acquire(k, "a", "d", LONG));
    nextServiceSecond();
    assertThat(measure("release (blob older than 1 s: deleted)", () -> backend.release(k, "a")))
        .containsExactly("GetBlobProperties", "DeleteBlob");

    String young = key();
    get(other.acquire(young, "a", "d", LONG));
    List<String> r =
        measure("release (blob created this second)", () -> backend.release(young, "a"));
    assertThat(r).hasSize(2).startsWith("GetBlobProperties");
    assertThat(r.get(1)).isIn("SetBlobMetadata", "DeleteBlob");
  }

  @Test
  void acquireOverAReleasedClaimIsThree() {
    String k = key();
    // plant a released claim: a release in the second the blob was created keeps the blob
    AcquireOutcome first;
    do {
      k = key();
      first = get(other.acquire(k, "a", "d", LONG));
      get(other.release(k, "a"));
    } while (!Azurite.shared()
        .rawClient()
        .getBlobContainerClient(backend.containerName())
        .getBlobClient(AzureBlobLockBackend.blobName(k))
        .exists());
    String released = k;
    List<String> r =
        measure("acquire, over a released claim", () -> backend.acquire(released, "b", "d", LONG));
    assertThat(r).containsExactly("PutBlob", "GetBlobProperties", "SetBlobMetadata");
    assertThat(get(backend.read(released)).orElseThrow().fencingToken())
        .isGreaterThan(first.fencingToken());
  }

  @Test
  void readIsOneAndTwoWhenItEvicts() {
    String k = key();
    assertThat(measure("read, free key", () -> backend.read(k)))
        .containsExactly("GetBlobProperties");
    get(other.acquire(k, "a", "d", LONG));
    assertThat(measure("read, live claim", () -> backend.read(k)))
        .containsExactly("GetBlobProperties");

    String dying = key();
    get(other.acquire(dying, "a", "d", Duration.ofSeconds(1)));
    TestTiming.pass(Duration.ofMillis(2100));
    assertThat(measure("read, expired claim (evicts)", () -> backend.read(dying)))
        .containsExactly("GetBlobProperties", "DeleteBlob");
  }

  @Test
  void wopiRequestsThroughAzureWopiLocks() {
    WopiLockProtocol wopi = new WopiLockProtocol(AzureWopiLocks.create(backend));
    String file = "rt-file-" + UUID.randomUUID();
    assertThat(wopiRequest("WOPI GetLock, unlocked", () -> wopi.getLock(file), 200)).hasSize(1);
    assertThat(wopiRequest("WOPI Lock, unlocked", () -> wopi.lock(file, "L1"), 200)).hasSize(2);
    assertThat(wopiRequest("WOPI Lock, same id (refresh)", () -> wopi.lock(file, "L1"), 200))
        .hasSize(3);
    assertThat(wopiRequest("WOPI Lock, other id (409)", () -> wopi.lock(file, "L2"), 409))
        .hasSize(2);
    assertThat(wopiRequest("WOPI GetLock, locked", () -> wopi.getLock(file), 200)).hasSize(1);
    assertThat(wopiRequest("WOPI RefreshLock", () -> wopi.refreshLock(file, "L1"), 200)).hasSize(2);
    assertThat(
            wopiRequest(
                "WOPI RefreshLock, other id (409)", () -> wopi.refreshLock(file, "L2"), 409))
        .containsExactly("GetBlobProperties");
    assertThat(
            wopiRequest("WOPI UnlockAndRelock", () -> wopi.unlockAndRelock(file, "L2", "L1"), 200))
        .hasSize(2);
    assertThat(
            wopiRequest(
                "WOPI PutFile lock check", () -> wopi.checkPutFile(file, "L2", () -> 10), 200))
        .hasSize(1);
    assertThat(wopiRequest("WOPI Unlock, other id (409)", () -> wopi.unlock(file, "L1"), 409))
        .containsExactly("GetBlobProperties");
    nextServiceSecond();
    assertThat(wopiRequest("WOPI Unlock", () -> wopi.unlock(file, "L2"), 200)).hasSize(2);
  }

  private static List<String> wopiRequest(
      String name, Supplier<WopiLockResponse> request, int status) {
    counter.reset();
    assertThat(request.get().status()).as(name).isEqualTo(status);
    List<String> requests = counter.requests();
    MEASURED.put(name, requests);
    return requests;
  }

  @Test
  void refusalsNamingAnotherOwnerAreOne() {
    String k = key();
    get(backend.acquire(k, "a", "d", LONG));
    assertThat(measure("extend, another owner's claim", () -> backend.extend(k, "b", LONG)))
        .containsExactly("GetBlobProperties");
    assertThat(measure("release, another owner's claim", () -> backend.release(k, "b")))
        .containsExactly("GetBlobProperties");
    assertThat(
            measure("replace, another owner's claim", () -> backend.replace(k, "b", "c", "", LONG)))
        .containsExactly("GetBlobProperties");
  }

  @Test
  void answersWithoutAClaimAreOne() {
    String k = key();
    assertThat(measure("extend, no claim", () -> backend.extend(k, "a", LONG)))
        .containsExactly("GetBlobProperties");
    assertThat(measure("release, no claim", () -> backend.release(k, "a")))
        .containsExactly("GetBlobProperties");
    assertThat(measure("replace, no claim", () -> backend.replace(k, "a", "b", "", LONG)))
        .containsExactly("GetBlobProperties");
  }
}
