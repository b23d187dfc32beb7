package io.hostloom.testkit.semaphore;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.PermitLeases;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.ViewSuiteHooks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The {@link PermitLeases} contract, tested on the view directly against a real backend: idempotent
 * re-acquire, at most {@code permits} live entries, the slot rule, tokens, the count mismatch,
 * owner checks, expiry on the backend's clock, the release signal, and instances racing into the
 * last permit. Backend-specific checks (key layout, command counts) stay in the backend's own
 * tests.
 *
 * <p>Subclass it in the backend module:
 *
 * <pre>{@code
 * class MyPermitViewTest extends PermitViewSuite {
 *   @Override protected LockBackend newBackend() { ... } // implements PermitLeases
 *   @Override protected Duration shortLease() { return Duration.ofSeconds(1); } // if whole seconds
 * }
 * }</pre>
 *
 * The suite opens an instance per test and closes it after it. Keys are fresh per test ({@link
 * #namespace()}{@code :semaphore:<uuid>}).
 */
public abstract class PermitViewSuite extends ViewSuiteHooks {
  private static final Duration LONG = Duration.ofSeconds(60);

  /** The permit view of {@link #backend()}. */
  protected LockBackend view(int permits) {
    LockBackend b = backend();
    assertThat(b).as("the backend implements PermitLeases").isInstanceOf(PermitLeases.class);
    return ((PermitLeases) b).permitView(permits).orElseThrow();
  }

  private String key() {
    return namespace() + ":semaphore:sem-" + UUID.randomUUID();
  }

  private static <T> T await(CompletableFuture<T> f) {
    return TestTiming.get(f, Duration.ofSeconds(30));
  }

  /**
   * Acquires of several instances race into the last free permit, round after round: exactly one of
   * them is granted each time.
   */
  @Test
  void racingGrantsIntoTheLastPermitGetOneOfThem() throws Exception {
    List<LockBackend> views =
        racers(4).stream().map(b -> ((PermitLeases) b).permitView(3).orElseThrow()).toList();
    for (int round = 0; round < 20; round++) {
      String key = key();
      for (int i = 0; i < 2; i++) {
        assertThat(await(views.get(0).acquire(key, "pre" + i, "3", LONG)).granted()).isTrue();
      }
      List<Boolean> granted = race(i -> views.get(i % views.size()), key, "3");
      assertThat(granted.stream().filter(g -> g).count())
          .as("round %d: grants of the last permit", round)
          .isEqualTo(1);
    }
  }

  @Test
  void aRetriedAcquireIsIdempotent() {
    LockBackend view = view(2);
    String key = key();
    long t1 = await(view.acquire(key, "a", "da", LONG)).fencingToken();
    var again = await(view.acquire(key, "a", "ignored", LONG));
    assertThat(again.granted()).isTrue();
    assertThat(again.fencingToken()).as("a re-acquire keeps its token").isEqualTo(t1);
    assertThat(await(view.read(key)).orElseThrow().data()).as("and its data").isEqualTo("da");
    assertThat(await(view.acquire(key, "b", "", LONG)).granted())
        .as("the retry took no second permit")
        .isTrue();
  }

  @Test
  void atMostPermitsLiveEntriesAndARefusalNamesTheFirstToExpire() {
    LockBackend view = view(2);
    String key = key();
    long t1 = await(view.acquire(key, "a", "da", LONG)).fencingToken();
    long t2 = await(view.acquire(key, "b", "db", Duration.ofSeconds(30))).fencingToken();
    assertThat(t2).isGreaterThan(t1);
    var refused = await(view.acquire(key, "c", "", LONG));
    assertThat(refused.granted()).isFalse();
    assertThat(refused.holder().orElseThrow().owner())
        .as("the entry that expires first")
        .isEqualTo("b");
    assertThat(refused.holder().orElseThrow().data()).isEqualTo("db");
    assertThat(await(view.read(key)).orElseThrow().fencingToken()).isEqualTo(t2);
  }

  @Test
  void theSlotIsTheLowestFreeOneAndTokensStrictlyIncrease() {
    int permits = 4;
    LockBackend view = view(permits);
    String key = key();
    long last = 0;
    for (int i = 0; i < permits; i++) {
      AcquireOutcome o = await(view.acquire(key, "o" + i, "", LONG));
      assertThat(o.granted()).isTrue();
      assertThat(Math.floorMod(o.fencingToken(), (long) permits))
          .as("the lowest free slot")
          .isEqualTo(i);
      assertThat(o.fencingToken()).isGreaterThan(last);
      last = o.fencingToken();
    }
    assertThat(await(view.acquire(key, "x", "", LONG)).granted()).isFalse();
    assertThat(await(view.release(key, "o2")).released()).isTrue();
    assertThat(await(view.release(key, "o0")).released()).isTrue();
    List<Long> slots = new ArrayList<>();
    for (String owner : List.of("p", "q")) {
      AcquireOutcome o = await(view.acquire(key, owner, "", LONG));
      assertThat(o.granted()).isTrue();
      assertThat(o.fencingToken()).as("tokens increase over all slots").isGreaterThan(last);
      last = o.fencingToken();
      slots.add(Math.floorMod(o.fencingToken(), (long) permits));
    }
    assertThat(slots).as("the lowest free slots, in order").containsExactly(0L, 2L);
  }

  @Test
  void aCountMismatchIsRefusedWithTheStoredData() {
    String key = key();
    assertThat(await(view(2).acquire(key, "a", "2", LONG)).granted()).isTrue();
    var refused = await(view(3).acquire(key, "b", "3", LONG));
    assertThat(refused.granted()).as("a view of another count while entries live").isFalse();
    assertThat(refused.holder().orElseThrow().data()).isEqualTo("2");
    assertThat(await(view(2).acquire(key, "b", "2", LONG)).granted()).isTrue();
  }

  @Test
  void extendAndReleaseAreOwnerChecked() {
    LockBackend view = view(2);
    String key = key();
    assertThat(await(view.acquire(key, "a", "", LONG)).granted()).isTrue();
    var ext = await(view.extend(key, "c", LONG));
    assertThat(ext.extended()).isFalse();
    assertThat(ext.holder()).as("never another owner's record").isEmpty();
    var rel = await(view.release(key, "c"));
    assertThat(rel.released()).isFalse();
    assertThat(rel.holder()).as("never another owner's record").isEmpty();
    assertThat(await(view.extend(key, "a", LONG)).extended()).isTrue();
    assertThat(await(view.release(key, "a")).released()).isTrue();
    assertThat(await(view.release(key, "a")).released()).isFalse();
    assertThat(await(view.extend(key, "a", LONG)).extended()).isFalse();
  }

  @Test
  void expiredPermitsComeBackOnTheServerClock() {
    LockBackend view = view(1);
    String key = key();
    assertThat(await(view.acquire(key, "a", "", shortLease())).granted()).isTrue();
    TestTiming.await(
        "the entry expired", () -> await(view.acquire(key, "b", "", LONG)).granted(), expiryWait());
    assertThat(await(view.extend(key, "a", LONG)).extended()).isFalse();
    assertThat(await(view.release(key, "a")).released()).isFalse();
  }

  @Test
  void replaceFailsWithKindOther() {
    LockBackend view = view(2);
    String key = key();
    assertThat(await(view.acquire(key, "c", "", LONG)).granted()).isTrue();
    Throwable failed;
    try {
      failed = view.replace(key, "c", "d", "", LONG).handle((r, e) -> e).join();
    } catch (LockBackendException e) {
      failed = e;
    }
    assertThat(failed).isInstanceOf(LockBackendException.class);
    assertThat(((LockBackendException) failed).kind()).isEqualTo(LockFailureKind.OTHER);
  }

  @Test
  void aReleaseWakesAWaitOfTheKey() {
    Assumptions.assumeTrue(
        releaseSignal(), "the backend is no ReleaseSignal: no view release is announced");
    LockBackend view = view(1);
    awaitSignalReady(backend());
    String key = key();
    assertThat(await(view.acquire(key, "a", "", LONG)).granted()).isTrue();
    await(view.acquire(key, "b", "", LONG)); // refused: a backend may flag the waiter here
    CompletableFuture<Boolean> woken = ((ReleaseSignal) backend()).awaitRelease(key, LONG);
    awaitWaitsWatching(backend());
    await(view.acquire(key, "b", "", LONG)); // refused after the wait: no release missed
    assertThat(await(view.release(key, "a")).released()).isTrue();
    assertThat(TestTiming.get(woken, Duration.ofSeconds(10))).isTrue();
  }
}
