package io.hostloom.wopi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.LockKey;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.locking.spi.support.SpiLimits;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class WopiLockProviderTest {
  private final StepClock clock = new StepClock();
  private final InMemoryLockBackend backend = new InMemoryLockBackend(clock);
  private final WopiLockProvider provider = WopiLockProvider.builder(backend).clock(clock).build();

  @Test
  void defaults() {
    WopiLockProvider p = WopiLockProvider.create(backend);
    assertThat(p.expiry())
        .isEqualTo(Duration.ofMinutes(30))
        .isEqualTo(WopiLockProvider.DEFAULT_EXPIRY);
    assertThat(p.keyPrefix()).isEqualTo("wopi:lock:");
    assertThat(p.comparer()).isSameAs(WopiLockComparer.ordinal());
  }

  @Test
  void theBuilderValidatesEveryValue() {
    WopiLockProvider.Builder b = WopiLockProvider.builder(backend);
    assertThatThrownBy(() -> b.expiry(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expiry must be positive but was PT0S");
    assertThatThrownBy(() -> b.expiry(Duration.ofSeconds(-1)))
        .hasMessage("expiry must be positive but was PT-1S");
    assertThatThrownBy(() -> b.keyPrefix("p".repeat(1025)))
        .hasMessage("keyPrefix must be at most 1024 characters but had 1025");
    assertThatThrownBy(() -> WopiLockProvider.builder(null))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> b.comparer(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> b.clock(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> b.expiry(null)).isInstanceOf(NullPointerException.class);
    WopiLockProvider p =
        b.expiry(Duration.ofSeconds(5))
            .keyPrefix("")
            .comparer(WopiLockComparer.jsonShaped())
            .build();
    assertThat(p.expiry()).isEqualTo(Duration.ofSeconds(5));
    assertThat(p.keyPrefix()).isEmpty();
    assertThat(p.comparer()).isSameAs(WopiLockComparer.jsonShaped());
  }

  @Test
  void aLockIsOneRecordKeyedByPrefixAndFileIdOwnedByTheIdentityWithTheIdAsData() {
    assertThat(provider.add("doc.docx", "lock-1").success()).isTrue();
    assertThat(provider.keyOf("doc.docx")).isEqualTo("wopi:lock:doc.docx");
    LeaseRecord record = backend.read("wopi:lock:doc.docx").join().orElseThrow();
    assertThat(record.owner()).isEqualTo("o:lock-1");
    assertThat(record.data()).isEqualTo("lock-1");
    assertThat(record.remaining())
        .as("expiry + grace")
        .isEqualTo(Duration.ofMinutes(30).plus(WopiLockProvider.EXPIRY_GRACE));
  }

  @Test
  void reportedTimesComeFromTheRemainingLeaseAndTheClock() {
    clock.advance(Duration.ofHours(1));
    assertThat(provider.add("f", "lock-1").success()).isTrue();
    clock.advance(Duration.ofMinutes(10));
    WopiLockInfo info = provider.getLock("f").orElseThrow();
    assertThat(info.fileId()).isEqualTo("f");
    assertThat(info.lockId()).isEqualTo("lock-1");
    assertThat(info.lastRefreshed()).isEqualTo(StepClock.EPOCH.plus(Duration.ofHours(1)));
    assertThat(info.expiresAt()).isEqualTo(info.lastRefreshed().plus(Duration.ofMinutes(30)));
    assertThat(info.toString()).doesNotContain("lock-1").contains("lockIdLength=6");
  }

  @Test
  void failuresCarryTheCurrentLock() {
    assertThat(provider.add("f", "lock-1").success()).isTrue();
    WopiLockResult r = provider.add("f", "lock-2");
    assertThat(r.success()).isFalse();
    assertThat(r.currentLockIdOrEmpty()).isEqualTo("lock-1");
    assertThat(r.currentLock()).isEqualTo(provider.getLock("f"));
    assertThat(provider.refresh("f", "lock-2").currentLockIdOrEmpty()).isEqualTo("lock-1");
    assertThat(provider.remove("f", "lock-2").currentLockIdOrEmpty()).isEqualTo("lock-1");
    assertThat(provider.unlockAndRelock("f", "x", "lock-2").currentLockIdOrEmpty())
        .isEqualTo("lock-1");
    assertThat(provider.remove("f", "lock-1")).isEqualTo(WopiLockResult.succeeded());
    assertThat(provider.refresh("f", "lock-1")).isEqualTo(WopiLockResult.failed(Optional.empty()));
  }

  @Test
  void fileIdsMustBeNonEmptyAndFitTheBackendsKeyLimit() {
    assertThatThrownBy(() -> provider.getLock(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> provider.add("", "lock"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("fileId must not be empty");
    String longest = "f".repeat(SpiLimits.MAX_KEY_LENGTH - "wopi:lock:".length());
    assertThat(provider.add(longest, "lock").success()).isTrue();
    assertThatThrownBy(() -> provider.add(longest + "f", "lock"))
        .hasMessage("fileId must be at most 8182 characters but had 8183");
    assertThat(provider.add("\u00e9/\ud83d\ude00 any:chars", "lock").success()).isTrue();
  }

  @Test
  void customComparersDecideThroughTheBackendsOwnerComparison() {
    WopiLockProvider p =
        WopiLockProvider.builder(backend)
            .clock(clock)
            .comparer(id -> "ci:" + id.toLowerCase(Locale.ROOT))
            .build();
    assertThat(p.add("f", "LOCK-1").success()).isTrue();
    assertThat(p.refresh("f", "lock-1").success()).isTrue();
    assertThat(p.add("f", "Lock-1").success()).as("same identity: a refresh").isTrue();
    assertThat(p.getLock("f").orElseThrow().lockId()).as("the stored id stays").isEqualTo("LOCK-1");
    assertThat(p.remove("f", "lock-2").success()).isFalse();
    assertThat(p.remove("f", "lock-1").success()).isTrue();
  }

  @Test
  void aComparerBreakingItsContractIsReportedBeforeAnythingIsSent() {
    for (WopiLockComparer bad :
        new WopiLockComparer[] {
          id -> "", id -> null, id -> "\u00e9" + id, id -> "x".repeat(2049)
        }) {
      WopiLockProvider p = WopiLockProvider.builder(backend).comparer(bad).build();
      assertThatThrownBy(() -> p.add("f", "lock"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("broke the WopiLockComparer contract");
    }
    assertThat(backend.liveCount()).isZero();
  }

  // --- failures of the backend

  @Test
  void backendFailuresKeepTheirKind() {
    for (LockFailureKind kind : LockFailureKind.values()) {
      LockBackendException cause = new LockBackendException(kind, "backend said no");
      WopiLockProvider p = WopiLockProvider.create(new FailingBackend(() -> failed(cause)));
      assertThatThrownBy(() -> p.add("doc", "secret-lock"))
          .isInstanceOf(WopiLockUnavailableException.class)
          .hasMessage(
              "WOPI lock add of file 'doc' failed ("
                  + kind
                  + "): backend said no on the lock backend")
          .hasCause(cause)
          .satisfies(
              e -> {
                WopiLockUnavailableException w = (WopiLockUnavailableException) e;
                assertThat(w.kind()).isEqualTo(kind);
                assertThat(w.operation()).isEqualTo("add");
                assertThat(w.fileId()).isEqualTo("doc");
              });
    }
  }

  @Test
  void everyOperationWrapsFailuresIncludingUnexpectedOnesAndSynchronousThrows() {
    RuntimeException bug = new IllegalStateException("bug");
    WopiLockProvider async = WopiLockProvider.create(new FailingBackend(() -> failed(bug)));
    WopiLockProvider sync =
        WopiLockProvider.create(
            new FailingBackend(
                () -> {
                  throw LockBackendException.unavailable("refused", null);
                }));
    for (WopiLockProvider p : new WopiLockProvider[] {async, sync}) {
      LockFailureKind kind = p == async ? LockFailureKind.OTHER : LockFailureKind.UNAVAILABLE;
      assertKind(() -> p.getLock("f"), kind);
      assertKind(() -> p.add("f", "l"), kind);
      assertKind(() -> p.refresh("f", "l"), kind);
      assertKind(() -> p.remove("f", "l"), kind);
      assertKind(() -> p.unlockAndRelock("f", "m", "l"), kind);
    }
  }

  @Test
  void interruptionStopsTheWaitKeepsTheFlagAndSaysTheCommandMayApply() {
    CompletableFuture<Object> never = new CompletableFuture<>();
    WopiLockProvider p = WopiLockProvider.create(new FailingBackend(() -> never));
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> p.add("f", "lock"))
          .isInstanceOf(WopiLockUnavailableException.class)
          .hasCauseInstanceOf(InterruptedException.class)
          .satisfies(
              e ->
                  assertThat(((WopiLockUnavailableException) e).kind())
                      .isEqualTo(LockFailureKind.TIMEOUT));
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
      assertThat(never).as("not cancelled").isNotCancelled();
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void aRecordWithoutTtlOrAHugeLeaseIsReportedNotThrown() {
    for (Duration remaining :
        new Duration[] {
          Duration.ofMillis(Long.MAX_VALUE), Duration.ofSeconds(Long.MAX_VALUE), Duration.ofDays(1)
        }) {
      LeaseRecord held = new LeaseRecord("other", "other", remaining, 7);
      WopiLockProvider read =
          WopiLockProvider.builder(
                  new FailingBackend(() -> CompletableFuture.completedFuture(Optional.of(held))))
              .clock(clock)
              .build();
      WopiLockInfo info = read.getLock("f").orElseThrow();
      assertThat(info.lockId()).isEqualTo("other");
      assertThat(info.expiresAt()).isAfter(StepClock.EPOCH.plus(Duration.ofHours(23)));

      WopiLockProvider add =
          WopiLockProvider.builder(
                  new FailingBackend(
                      () -> CompletableFuture.completedFuture(AcquireOutcome.held(held))))
              .clock(clock)
              .build();
      WopiLockResult r = add.add("f", "mine");
      assertThat(r.success()).isFalse();
      assertThat(r.currentLock().orElseThrow().lockId()).isEqualTo("other");
    }
  }

  @Test
  void aKeyPrefixThatAKernelKeyCanStartWithIsRefused() {
    WopiLockProvider.Builder b = WopiLockProvider.builder(backend);
    for (String bad : new String[] {"files:", "files", "files:lock:", "files:lo", "app:lock:x/"}) {
      assertThatThrownBy(() -> b.keyPrefix(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("must not be the start of a kernel lock key");
    }
    for (String good :
        new String[] {"", "wopi:lock:", "wopi:", "files:wopi:", "Files:", "files/", "a:lock: "}) {
      assertThat(b.keyPrefix(good).build().keyPrefix()).isEqualTo(good);
    }
  }

  @Test
  void noKernelNamespaceSharesTheDefaultWopiKeys() {
    // namespace "wopi" would key its lock "doc" as wopi:lock:doc, the WOPI lock of file "doc"
    assertThatThrownBy(() -> DistributedLock.create(LockingOptions.of("wopi"), backend))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not be 'wopi'");
    assertThat(LockKey.canPrefixKernelKey(WopiLockProvider.DEFAULT_KEY_PREFIX)).isFalse();
  }

  private static void assertKind(Runnable call, LockFailureKind kind) {
    assertThatThrownBy(call::run)
        .isInstanceOf(WopiLockUnavailableException.class)
        .satisfies(e -> assertThat(((WopiLockUnavailableException) e).kind()).isEqualTo(kind));
  }

  private static <T> CompletableFuture<T> failed(Throwable t) {
    return CompletableFuture.failedFuture(t);
  }

  /** A backend whose every call answers with {@code answer} (mostly a failure in these tests). */
  private static final class FailingBackend implements LockBackend {
    private final Supplier<CompletableFuture<?>> answer;

    FailingBackend(Supplier<CompletableFuture<?>> answer) {
      this.answer = answer;
    }

    @SuppressWarnings("unchecked") // each test calls only the operation its answer is typed for
    private <T> CompletableFuture<T> answer() {
      return (CompletableFuture<T>) answer.get();
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquire(
        String key, String owner, String data, Duration lease) {
      return answer();
    }

    @Override
    public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
      return answer();
    }

    @Override
    public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
      return answer();
    }

    @Override
    public CompletableFuture<ReplaceOutcome> replace(
        String key, String expectedOwner, String newOwner, String newData, Duration lease) {
      return answer();
    }

    @Override
    public CompletableFuture<Optional<LeaseRecord>> read(String key) {
      return answer();
    }
  }
}
