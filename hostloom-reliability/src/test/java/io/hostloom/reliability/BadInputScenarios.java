package io.hostloom.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.support.SpiLimits;
import io.hostloom.locking.testing.CountingLockBackend;
import io.hostloom.wopi.WopiLockProvider;
import io.hostloom.wopi.WopiLockResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Bad input against a real backend: every rejected key, lock id or SPI argument fails at once with
 * a clear {@link IllegalArgumentException} (or {@link NullPointerException} for null), sends
 * nothing to the backend, and leaves the server's lock state exactly as it was (read back from the
 * server afterwards). Exotic but valid keys (non-BMP characters, lone surrogates) work and stay
 * distinct.
 */
abstract class BadInputScenarios extends ScenarioBase {
  private static final Duration LEASE = Duration.ofSeconds(30);

  /** Keys the kernel must refuse: whitespace, control characters, empty, over-length. */
  static final Map<String, String> BAD_KEYS =
      Map.ofEntries(
          Map.entry("leading space", " doc"),
          Map.entry("trailing space", "doc "),
          Map.entry("inner space", "my doc"),
          Map.entry("tab", "doc\t1"),
          Map.entry("newline", "doc\n1"),
          Map.entry("carriage return", "doc\r1"),
          Map.entry("NUL", "doc\u00001"),
          Map.entry("DEL", "doc\u007f"),
          Map.entry("C1 control NEL", "doc\u0085"),
          Map.entry("no-break space", "doc\u00a0"),
          Map.entry("line separator", "doc\u2028"),
          Map.entry("ideographic space", "doc\u3000"),
          Map.entry("empty", ""),
          Map.entry("513 characters", "k".repeat(LockingOptions.DEFAULT_MAX_KEY_LENGTH + 1)));

  /** Lock ids WOPI forbids: over 1024 characters, non-ASCII, control characters, empty. */
  static final Map<String, String> BAD_LOCK_IDS =
      Map.ofEntries(
          Map.entry("1025 characters", "L".repeat(1025)),
          Map.entry("empty", ""),
          Map.entry("Latin-1", "l\u00f6ck"),
          Map.entry("CJK", "\u9396"),
          Map.entry("emoji", "lock-\ud83d\udd12"),
          Map.entry("lone surrogate", "lock-\ud800"),
          Map.entry("NUL", "lock\u0000"),
          Map.entry("tab", "lock\t1"),
          Map.entry("DEL", "lock\u007f"));

  /** Valid keys that stress a backend's key mapping: a non-BMP character, lone surrogates. */
  static final List<String> EXOTIC_KEYS =
      List.of("doc-\ud83d\udd12", "doc-\ud800", "doc-\udbff", "doc-\udc00", "doc-\ud800\ud800");

  @Test
  void badKeysAreRejectedAndChangeNothing() throws Exception {
    BackendTarget t = target();
    try (BackendClient client = t.spec().open()) {
      LockBackend raw = client.backend();
      CountingLockBackend counting = new CountingLockBackend(raw);
      try (DistributedLock lock = DistributedLock.create(LockingOptions.of("rel"), counting);
          LockHandle sentinel =
              lock.acquire("sentinel", LockOptions.builder().lease(LEASE).build())) {
        String sentinelKey = "rel:lock:sentinel";
        LeaseRecord before = raw.read(sentinelKey).get().orElseThrow();
        long stored = t.storedRecords();
        long calls = total(counting);
        int rejected = 0;
        for (Map.Entry<String, String> bad : BAD_KEYS.entrySet()) {
          for (ThrowingCallable call : everyForm(lock, bad.getValue())) {
            assertThatThrownBy(call)
                .as("key with %s", bad.getKey())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key");
            rejected++;
          }
        }
        for (ThrowingCallable call : everyForm(lock, null)) {
          assertThatThrownBy(call).isInstanceOf(NullPointerException.class);
          rejected++;
        }
        assertThat(total(counting)).as("backend calls for rejected keys").isEqualTo(calls);
        // arguments the SPI forbids, straight at the backend
        String owner = "o".repeat(32);
        List<ThrowingCallable> spi =
            List.of(
                () -> raw.acquire("", owner, "", LEASE),
                () -> raw.acquire("rel:lock:x", "", "", LEASE),
                () -> raw.acquire("rel:lock:x", owner, "", Duration.ZERO),
                () -> raw.acquire("rel:lock:x", owner, "", Duration.ofMillis(-1)),
                () -> raw.extend("", owner, LEASE),
                () -> raw.extend("rel:lock:x", owner, Duration.ZERO),
                () -> raw.release("", owner),
                () -> raw.release("rel:lock:x", ""),
                () -> raw.replace("rel:lock:x", owner, "", "", LEASE),
                () -> raw.read(""));
        for (int i = 0; i < spi.size(); i++) {
          assertThat(catchThrowable(spi.get(i)))
              .as("SPI argument violation #%d", i + 1)
              .isInstanceOf(IllegalArgumentException.class);
          rejected++;
        }
        assertUnchanged(raw.read(sentinelKey).get(), before, "the sentinel lock");
        assertThat(t.storedRecords()).as("records stored on the server").isEqualTo(stored);

        assertThat(sentinel.isHeld()).as("the sentinel is still held").isTrue();
        List<String> collisions = exoticKeyCollisions(lock, raw);
        String beyond = beyondSpiLimits(raw);
        new ScenarioReport(
                "Bad keys",
                t.name(),
                BAD_KEYS.size() + " bad keys x 8 API forms, null, 10 SPI argument violations",
                "invalid input",
                rejected
                    + " calls rejected (IllegalArgumentException / NullPointerException), 0 backend"
                    + " calls, stored records and the sentinel lock unchanged; "
                    + EXOTIC_KEYS.size()
                    + " non-BMP / lone-surrogate keys: "
                    + (collisions.isEmpty()
                        ? "locked independently and released"
                        : "collided with an earlier one: " + collisions)
                    + "; "
                    + beyond,
                collisions.size())
            .publish();
        assertThat(collisions).as("distinct valid keys that share one lock").isEmpty();
      }
    }
  }

  /**
   * Non-BMP and lone-surrogate keys are valid kernel keys: each must lock independently of the
   * others (the SPI allows any characters; a backend that maps keys must map them injectively) and
   * leave no lease after its release. Returns the keys that were not free while only the keys
   * before them were held: collisions.
   */
  private static List<String> exoticKeyCollisions(DistributedLock lock, LockBackend raw)
      throws Exception {
    List<String> collisions = new ArrayList<>();
    List<LockHandle> held = new ArrayList<>();
    try {
      for (String k : EXOTIC_KEYS) {
        Optional<LockHandle> h = lock.tryAcquire(k);
        if (h.isPresent()) {
          held.add(h.get());
        } else {
          collisions.add(describe(k));
        }
      }
      for (String k : EXOTIC_KEYS) {
        assertThat(lock.tryAcquire(k)).as("held keys stay held").isEmpty();
      }
    } finally {
      held.forEach(LockHandle::close);
    }
    for (String k : EXOTIC_KEYS) {
      assertThat(raw.read("rel:lock:" + k).get()).as("released").isEmpty();
    }
    return collisions;
  }

  private static String describe(String key) {
    StringBuilder sb = new StringBuilder();
    key.chars()
        .forEach(c -> sb.append(c < 0x7f ? Character.toString(c) : String.format("\\u%04X", c)));
    return sb.toString();
  }

  /**
   * The SPI promises support up to 8192-unit keys and 2048-unit owners and data; beyond that a
   * backend may reject or accept. Reports which, and releases whatever was granted.
   */
  private static String beyondSpiLimits(LockBackend raw) throws Exception {
    String owner = "o".repeat(32);
    Map<String, String[]> cases =
        Map.of(
            (SpiLimits.MAX_KEY_LENGTH + 1) + "-unit key",
            new String[] {
              "rel:lock:" + "k".repeat(SpiLimits.MAX_KEY_LENGTH + 1 - "rel:lock:".length()),
              owner,
              ""
            },
            (SpiLimits.MAX_OWNER_LENGTH + 1) + "-unit owner",
            new String[] {"rel:lock:long-owner", "o".repeat(SpiLimits.MAX_OWNER_LENGTH + 1), ""},
            (SpiLimits.MAX_DATA_LENGTH + 1) + "-unit data",
            new String[] {"rel:lock:long-data", owner, "d".repeat(SpiLimits.MAX_DATA_LENGTH + 1)});
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, String[]> c : new java.util.TreeMap<>(cases).entrySet()) {
      String[] a = c.getValue();
      String answer;
      try {
        boolean granted = raw.acquire(a[0], a[1], a[2], LEASE).get().granted();
        answer = granted ? "accepted" : "held";
        if (granted) {
          assertThat(raw.release(a[0], a[1]).get().released()).isTrue();
        }
      } catch (IllegalArgumentException e) {
        answer = "rejected";
      }
      out.add(c.getKey() + " " + answer);
    }
    return "beyond the SPI limits: " + String.join(", ", out);
  }

  private static List<ThrowingCallable> everyForm(DistributedLock lock, String key) {
    LockOptions o = LockOptions.builder().lease(LEASE).build();
    return List.of(
        () -> lock.acquire(key, o).close(),
        () -> lock.tryAcquire(key),
        () -> lock.tryAcquire(key, o),
        () -> lock.runWithLock(key, o, h -> {}),
        () -> lock.executeWithLock(key, o, h -> 1),
        () -> lock.acquireAsync(key, o),
        () -> lock.tryAcquireAsync(key, o),
        () -> lock.executeWithLockAsync(key, o, h -> CompletableFuture.completedFuture(1)));
  }

  @Test
  void badWopiLockIdsAreRejectedAndChangeNothing() throws Exception {
    BackendTarget t = target();
    try (BackendClient client = t.spec().open()) {
      LockBackend raw = client.backend();
      CountingLockBackend counting = new CountingLockBackend(raw);
      WopiLockProvider wopi =
          WopiLockProvider.builder(counting).expiry(Duration.ofMinutes(1)).build();
      String file = "reliability-doc";
      String other = "reliability-unlocked";
      assertThat(wopi.add(file, "good-lock").success()).isTrue();
      LeaseRecord before = raw.read(wopi.keyOf(file)).get().orElseThrow();
      long stored = t.storedRecords();
      long calls = total(counting);
      int rejected = 0;
      List<String> ids = new ArrayList<>(BAD_LOCK_IDS.values());
      ids.add(null);
      for (String bad : ids) {
        List<ThrowingCallable> forms =
            List.of(
                () -> wopi.add(file, bad),
                () -> wopi.add(other, bad),
                () -> wopi.refresh(file, bad),
                () -> wopi.remove(file, bad),
                () -> wopi.unlockAndRelock(file, bad, "good-lock"),
                () -> wopi.unlockAndRelock(file, "good-lock", bad));
        for (ThrowingCallable call : forms) {
          assertThatThrownBy(call)
              .as("lock id %s", bad == null ? "null" : bad.length() + " chars")
              .isInstanceOfAny(IllegalArgumentException.class, NullPointerException.class);
          rejected++;
        }
      }
      for (String badFile : new String[] {"", "f".repeat(8193), null}) {
        assertThatThrownBy(() -> wopi.add(badFile, "good-lock"))
            .isInstanceOfAny(IllegalArgumentException.class, NullPointerException.class);
        rejected++;
      }
      assertThat(total(counting)).as("backend calls for rejected input").isEqualTo(calls);
      assertUnchanged(raw.read(wopi.keyOf(file)).get(), before, "the existing WOPI lock");
      assertThat(wopi.getLock(other)).as("the unlocked file").isEmpty();
      assertThat(t.storedRecords()).as("records stored on the server").isEqualTo(stored);
      // the boundary itself is valid: exactly 1024 printable ASCII characters
      String longest = "L".repeat(1024);
      WopiLockResult swapped = wopi.unlockAndRelock(file, longest, "good-lock");
      assertThat(swapped.success()).isTrue();
      assertThat(wopi.getLock(file).orElseThrow().lockId()).isEqualTo(longest);
      assertThat(wopi.remove(file, longest).success()).isTrue();
      new ScenarioReport(
              "Bad WOPI lock ids",
              t.name(),
              BAD_LOCK_IDS.size() + " bad ids + null x 6 provider calls, 3 bad file ids",
              "invalid input",
              rejected
                  + " calls rejected with IllegalArgumentException / NullPointerException, 0 backend"
                  + " calls, existing lock and stored records unchanged; 1024-char id accepted",
              0)
          .publish();
    }
  }

  /** Same owner, data and token, and not refreshed (its remaining lease only went down). */
  private static void assertUnchanged(Optional<LeaseRecord> now, LeaseRecord before, String what) {
    LeaseRecord r = now.orElseThrow(() -> new AssertionError(what + " vanished"));
    assertThat(r.owner()).as(what + ": owner").isEqualTo(before.owner());
    assertThat(r.data()).as(what + ": data").isEqualTo(before.data());
    assertThat(r.fencingToken()).as(what + ": token").isEqualTo(before.fencingToken());
    assertThat(r.remaining())
        .as(what + ": remaining lease")
        .isLessThanOrEqualTo(before.remaining());
  }

  private static long total(CountingLockBackend c) {
    return c.total();
  }
}
