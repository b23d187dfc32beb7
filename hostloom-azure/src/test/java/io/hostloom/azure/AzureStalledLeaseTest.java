package io.hostloom.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.policy.HttpPipelinePolicy;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.testkit.TcpFaultProxy;
import io.hostloom.testkit.TcpFaultProxy.Direction;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * A writer whose lease request stalls (held in a {@link TcpFaultProxy}) while a competitor judges
 * its still unleased claim abandoned: the competitor's takeover write loses to the lease that lands
 * meanwhile, and its next read must be judged afresh, never answered by breaking the writer's lease
 * on the earlier verdict. At most one holder. On Azurite.
 */
class AzureStalledLeaseTest {
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final Duration CALL = Duration.ofSeconds(20);

  @Test
  void aCompetitorNeverBreaksTheLeaseOfAWriterWhoseLeaseRequestWasSlow() throws Exception {
    String container = Azurite.shared().newContainer("stalled-lease").getBlobContainerName();
    String key = "stalled-" + UUID.randomUUID();
    try (TcpFaultProxy proxy = TcpFaultProxy.start("127.0.0.1", Azurite.shared().port())) {
      CountDownLatch leaseHeld = new CountDownLatch(1);
      AtomicBoolean stalledOnce = new AtomicBoolean();
      HttpPipelinePolicy stallLease =
          (ctx, next) -> {
            if (isLeaseAcquire(ctx) && stalledOnce.compareAndSet(false, true)) {
              proxy.hold(Direction.TO_UPSTREAM); // the request is sent but held in the proxy
              leaseHeld.countDown();
            }
            return next.process();
          };
      // writer A: through the proxy, a command timeout long enough to outlast the stall
      AzureBlobLockBackend a =
          AzureBlobLockBackend.builder()
              .connectionString(
                  AzuriteTestServer.shared().connectionString(proxy.host(), proxy.port()))
              .containerName(container)
              .commandTimeout(Duration.ofSeconds(10))
              .unleasedClaimGrace(Duration.ofSeconds(12))
              .addPolicy(stallLease)
              .build();

      CompletableFuture<AcquireOutcome> first = a.acquire(key, "writer-a", "", LEASE);
      CompletableFuture<Void> firstDone = first.handle((o, e) -> null);
      assertThat(leaseHeld.await(CALL.toSeconds(), TimeUnit.SECONDS)).isTrue();

      // writer B: direct, with a short grace (another instance configured differently); its
      // first takeover write is let through only once A's lease has landed and A has its answer
      AtomicBoolean tookOver = new AtomicBoolean();
      HttpPipelinePolicy takeoverAfterLease =
          (ctx, next) -> {
            if (isSetMetadata(ctx) && tookOver.compareAndSet(false, true)) {
              proxy.release(Direction.TO_UPSTREAM);
              return Mono.fromFuture(firstDone).then(next.process());
            }
            return next.process();
          };
      AzureBlobLockBackend b =
          Azurite.shared()
              .backend(container)
              .commandTimeout(Duration.ofMillis(1500))
              .unleasedClaimGrace(Duration.ofSeconds(3))
              .addPolicy(takeoverAfterLease)
              .build();

      AtomicReference<AcquireOutcome> second = new AtomicReference<>();
      TestTiming.await(
          "B judges A's unleased claim abandoned and tries to take it over",
          () -> {
            second.set(TestTiming.get(b.acquire(key, "writer-b", "", LEASE), CALL));
            return tookOver.get();
          },
          CALL);

      AcquireOutcome byA = TestTiming.get(first, CALL);
      AcquireOutcome byB = second.get();
      assertThat(byA.granted() && byB.granted()).as("two holders").isFalse();
      assertThat(byA.granted()).as("A leased its claim within its command timeout").isTrue();
      assertThat(byB.holder().map(LeaseRecord::owner)).contains("writer-a");
      Optional<LeaseRecord> now = TestTiming.get(b.read(key), CALL);
      assertThat(now.map(LeaseRecord::owner)).contains("writer-a");
      assertThat(TestTiming.get(a.extend(key, "writer-a", LEASE), CALL).extended()).isTrue();
    }
  }

  /**
   * The other order of the race, by an operation that sees the claim live: while A's lease request
   * is held, B removes A's claim as its owner (a WOPI unlock by another instance with the same lock
   * id). A's acquire took effect at its upload and was superseded: A answers granted and does not
   * create the claim again (before, A decided again on the absent blob and re-created it, so an
   * unlock that had answered 200 was undone: not linearizable).
   */
  @Test
  void aClaimRemovedByItsOwnerWhileItsLeaseWasInFlightTookEffectAndStaysRemoved() throws Exception {
    String container = Azurite.shared().newContainer("superseded-lease").getBlobContainerName();
    String key = "superseded-" + UUID.randomUUID();
    try (TcpFaultProxy proxy = TcpFaultProxy.start("127.0.0.1", Azurite.shared().port())) {
      CountDownLatch leaseHeld = new CountDownLatch(1);
      AtomicBoolean stalledOnce = new AtomicBoolean();
      HttpPipelinePolicy stallLease =
          (ctx, next) -> {
            if (isLeaseAcquire(ctx) && stalledOnce.compareAndSet(false, true)) {
              proxy.hold(Direction.TO_UPSTREAM);
              leaseHeld.countDown();
            }
            return next.process();
          };
      AzureBlobLockBackend a =
          AzureBlobLockBackend.builder()
              .connectionString(
                  AzuriteTestServer.shared().connectionString(proxy.host(), proxy.port()))
              .containerName(container)
              .commandTimeout(Duration.ofSeconds(10))
              .addPolicy(stallLease)
              .build();
      AzureBlobLockBackend b = Azurite.shared().backend(container).build();

      CompletableFuture<AcquireOutcome> first = a.acquire(key, "lock-id-1", "", LEASE);
      assertThat(leaseHeld.await(CALL.toSeconds(), TimeUnit.SECONDS)).isTrue();
      assertThat(TestTiming.get(b.read(key), CALL).map(LeaseRecord::owner))
          .as("the unleased claim is live to others")
          .contains("lock-id-1");
      assertThat(TestTiming.get(b.release(key, "lock-id-1"), CALL).released()).isTrue();
      proxy.release(Direction.TO_UPSTREAM);

      assertThat(TestTiming.get(first, CALL).granted()).as("A took effect").isTrue();
      assertThat(TestTiming.get(b.read(key), CALL)).as("the release stays in force").isEmpty();
    }
  }

  @Test
  void aGraceNotLongerThanTheCommandTimeoutPlusTheClockMarginIsRefused() {
    AzureBlobLockBackend.Builder b =
        Azurite.shared()
            .backend("any-container")
            .commandTimeout(Duration.ofSeconds(5))
            .unleasedClaimGrace(Duration.ofSeconds(6));
    assertThatThrownBy(b::build)
        .isInstanceOf(AzureLockConfigurationException.class)
        .hasMessageContaining(
            "unleasedClaimGrace must be longer than commandTimeout + CLOCK_MARGIN")
        .hasMessageContaining("but was PT6S");
    b.unleasedClaimGrace(Duration.ofMillis(6001)).build();
    // unset, the grace follows the command timeout
    Azurite.shared().backend("any-container").commandTimeout(Duration.ofSeconds(20)).build();
  }

  private static boolean isLeaseAcquire(HttpPipelineCallContext ctx) {
    String query = ctx.getHttpRequest().getUrl().getQuery();
    return query != null
        && query.contains("comp=lease")
        && "acquire"
            .equalsIgnoreCase(ctx.getHttpRequest().getHeaders().getValue("x-ms-lease-action"));
  }

  private static boolean isSetMetadata(HttpPipelineCallContext ctx) {
    String query = ctx.getHttpRequest().getUrl().getQuery();
    return query != null && query.contains("comp=metadata");
  }
}
