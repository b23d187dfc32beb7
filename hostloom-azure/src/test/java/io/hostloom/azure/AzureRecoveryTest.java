package io.hostloom.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.LeaseStateType;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.testkit.LockHistory;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Crash recovery without a sweeper, against a real Azurite: abandoned claims are taken over after
 * their lease, claims left without a lease after the grace, and a takeover racing the holder's
 * refresh never destroys the refreshed lock. Fencing tokens survive deleted blobs.
 */
class AzureRecoveryTest {
  private static final Duration CALL = Duration.ofSeconds(10);
  private static final Duration SECOND = Duration.ofSeconds(1);
  private static final Duration LONG = Duration.ofSeconds(60);
  private static final Duration GRACE = Duration.ofSeconds(3);
  // the grace must exceed the command timeout + the 1 s clock margin (checked at build())
  private static final Duration COMMAND_TIMEOUT = Duration.ofMillis(1900);

  private static BlobContainerClient container;
  private static AzureBlobLockBackend one;
  private static AzureBlobLockBackend two;

  @BeforeAll
  static void start() {
    container = Azurite.shared().newContainer("recovery");
    one =
        Azurite.shared()
            .backend(container.getBlobContainerName())
            .commandTimeout(COMMAND_TIMEOUT)
            .unleasedClaimGrace(GRACE)
            .build();
    two =
        Azurite.shared()
            .backend(container.getBlobContainerName())
            .commandTimeout(COMMAND_TIMEOUT)
            .unleasedClaimGrace(GRACE)
            .build();
  }

  private static <T> T get(CompletableFuture<T> f) {
    return TestTiming.get(f, CALL);
  }

  private static String key(String label) {
    return "recovery:" + label + ":" + UUID.randomUUID();
  }

  private static BlobClient blobOf(String key) {
    return container.getBlobClient(AzureBlobLockBackend.blobName(key));
  }

  /** Polls {@code acquire} until granted, within {@code within} (scaled). */
  private static AcquireOutcome acquireEventually(
      AzureBlobLockBackend b, String key, String owner, Duration within) {
    AcquireOutcome[] last = new AcquireOutcome[1];
    TestTiming.await(
        owner + " is granted " + key,
        () -> (last[0] = get(b.acquire(key, owner, "d", LONG))).granted(),
        within);
    return last[0];
  }

  @Test
  void aHolderThatNeverReleasesIsTakenOverAfterItsLease() {
    String k = key("abandoned");
    long dead = get(one.acquire(k, "dead", "d", SECOND)).fencingToken(); // and never heard of again

    assertThat(get(two.acquire(k, "next", "d", LONG)).granted()).as("still live").isFalse();
    AcquireOutcome taken = acquireEventually(two, k, "next", Duration.ofSeconds(5));

    assertThat(taken.fencingToken()).isGreaterThan(dead);
    assertThat(get(one.extend(k, "dead", LONG)).extended()).isFalse();
    assertThat(get(one.release(k, "dead")).released()).isFalse();
    LeaseRecord r = get(one.read(k)).orElseThrow();
    assertThat(r.owner()).isEqualTo("next");
    assertThat(r.fencingToken()).isEqualTo(taken.fencingToken());
    assertThat(blobOf(k).getProperties().getLeaseState()).isEqualTo(LeaseStateType.LEASED);
  }

  @Test
  void aClaimLeftWithoutALeaseByACrashIsReclaimedAfterTheGrace() {
    String k = key("unleased");
    // the writer uploaded its claim and died before leasing the blob
    uploadClaim(
        k,
        ClaimMetadata.held(
            "dead", "d", LONG.toMillis(), UUID.randomUUID().toString(), Instant.now(), null, 0));

    AcquireOutcome early = get(two.acquire(k, "next", "d", LONG));
    assertThat(early.granted()).as("a fresh unleased claim may be an acquire in flight").isFalse();
    assertThat(early.holder().orElseThrow().owner()).isEqualTo("dead");
    assertThat(early.holder().orElseThrow().remaining()).isLessThanOrEqualTo(GRACE);

    AcquireOutcome taken = acquireEventually(two, k, "next", GRACE.plusSeconds(3));
    assertThat(taken.fencingToken()).isGreaterThan(early.holder().orElseThrow().fencingToken());
    assertThat(blobOf(k).getProperties().getLeaseState()).isEqualTo(LeaseStateType.LEASED);

    String evicted = key("unleased-evicted");
    uploadClaim(
        evicted,
        ClaimMetadata.held(
            "dead", "d", LONG.toMillis(), UUID.randomUUID().toString(), Instant.now(), null, 0));
    TestTiming.await(
        "the stray claim is evicted on read",
        () -> get(one.read(evicted)).isEmpty() && !blobOf(evicted).exists(),
        GRACE.plusSeconds(3));
  }

  @Test
  void aBlobWithoutAnyClaimBlocksOnlyForTheGrace() {
    String k = key("no-metadata");
    uploadClaim(k, Map.of());

    AcquireOutcome early = get(two.acquire(k, "next", "d", LONG));
    assertThat(early.granted()).isFalse();
    assertThat(early.holder().orElseThrow().owner()).isEmpty();

    acquireEventually(two, k, "next", GRACE.plusSeconds(3));
    assertThat(get(one.read(k)).orElseThrow().owner()).isEqualTo("next");
  }

  @Test
  void fencingTokensIncreaseAcrossADeletedBlob() {
    String k = key("deleted");
    long first = get(one.acquire(k, "a", "d", LONG)).fencingToken();
    TestTiming.pass(Duration.ofMillis(1100)); // leave the creation second: release deletes
    assertThat(get(one.release(k, "a")).released()).isTrue();
    assertThat(blobOf(k).exists()).as("placeholder deleted").isFalse();

    long second = get(two.acquire(k, "b", "d", LONG)).fencingToken();

    assertThat(second).isGreaterThan(first);
  }

  @Test
  void aReleaseInTheCreationSecondKeepsAReleasedClaimThatIsCleanedUpLater() {
    String k;
    long token;
    do { // release within the blob's creation second (almost always the first try)
      k = key("tombstone");
      token = get(one.acquire(k, "a", "d", LONG)).fencingToken();
      assertThat(get(one.release(k, "a")).released()).isTrue();
    } while (!blobOf(k).exists());
    String released = k;

    Map<String, String> md = blobOf(released).getProperties().getMetadata();
    assertThat(md)
        .containsEntry("hl_free", "1")
        .containsEntry("wopi_created", ClaimMetadata.RELEASED_CREATED);
    assertThat(new DotnetLayout(container).getLock(released, Instant.now())).isEmpty();
    assertThat(get(two.read(released))).isEmpty();
    assertThat(get(two.acquire(released, "b", "d", LONG)).fencingToken()).isGreaterThan(token);
    assertThat(get(two.release(released, "b")).released()).isTrue();

    TestTiming.await(
        "the released claim is deleted by a later read",
        () -> get(one.read(released)).isEmpty() && !blobOf(released).exists(),
        Duration.ofSeconds(3));
  }

  @Test
  void aTakeoverRacingTheHoldersRefreshNeverDestroysTheRefreshedLock() throws Exception {
    LockHistory history = new LockHistory();
    ExecutorService pool = Executors.newFixedThreadPool(4);
    int takeovers = 0;
    try {
      for (int round = 0; round < 5; round++) {
        String k = key("race-" + round);
        String holder = "holder-" + round;
        long sent = LockHistory.now();
        AcquireOutcome granted = get(one.acquire(k, holder, "d", SECOND));
        assertThat(granted.granted()).isTrue();
        LockHistory.Hold hold = history.enter(k, holder, granted.fencingToken(), sent, SECOND);
        AtomicBoolean over = new AtomicBoolean();
        List<Future<?>> tasks = new ArrayList<>();
        // the holder refreshes late, around its lease's end, until a refresh fails
        tasks.add(
            pool.submit(
                () -> {
                  while (!over.get()) {
                    TestTiming.pass(
                        Duration.ofMillis(ThreadLocalRandom.current().nextLong(700, 1900)));
                    long s = LockHistory.now();
                    if (!get(one.extend(k, holder, SECOND)).extended()) {
                      return null;
                    }
                    hold.extended(s, SECOND);
                  }
                  return null;
                }));
        // two takers on the other instance hammer acquire; the first grant ends the round
        for (int t = 0; t < 2; t++) {
          String taker = "taker-" + round + "-" + t;
          tasks.add(
              pool.submit(
                  () -> {
                    while (!over.get()) {
                      long s = LockHistory.now();
                      AcquireOutcome o = get(two.acquire(k, taker, "d", SECOND));
                      if (o.granted()) {
                        LockHistory.Hold h = history.enter(k, taker, o.fencingToken(), s, SECOND);
                        TestTiming.pass(Duration.ofMillis(20));
                        h.exit();
                        over.set(true);
                        return null;
                      }
                      TestTiming.pass(Duration.ofMillis(5));
                    }
                    return null;
                  }));
        }
        // a reader evicting expired claims races both
        tasks.add(
            pool.submit(
                () -> {
                  while (!over.get()) {
                    Optional<LeaseRecord> r = get(one.read(k));
                    assertThat(r).isNotNull();
                  }
                  return null;
                }));
        for (Future<?> f : tasks) {
          f.get(TestTiming.scaled(Duration.ofSeconds(60)).toNanos(), TimeUnit.NANOSECONDS);
        }
        takeovers++;
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(takeovers).isEqualTo(5);
    history.check().assertNoViolations();
  }

  private static void uploadClaim(String key, Map<String, String> metadata) {
    blobOf(key)
        .getBlockBlobClient()
        .uploadWithResponse(
            new BlockBlobSimpleUploadOptions(BinaryData.fromBytes(new byte[0]))
                .setMetadata(metadata)
                .setRequestConditions(new BlobRequestConditions().setIfNoneMatch("*")),
            null,
            com.azure.core.util.Context.NONE);
  }
}
