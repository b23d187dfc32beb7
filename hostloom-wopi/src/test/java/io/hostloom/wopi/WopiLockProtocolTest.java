package io.hostloom.wopi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.memory.InMemoryLockBackend;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The WOPI lock rules 1-10, one group of tests per rule, over the in-memory backend. */
class WopiLockProtocolTest {
  private static final String FILE = "file-1";

  private final StepClock clock = new StepClock();
  private final InMemoryLockBackend backend = new InMemoryLockBackend(clock);
  private final WopiLockProvider provider = WopiLockProvider.builder(backend).clock(clock).build();
  private final WopiLockProtocol protocol = new WopiLockProtocol(provider);

  private static long emptyFile() {
    return 0;
  }

  private static long nonEmptyFile() {
    return 42;
  }

  /**
   * Sends a request with the given lock headers (null = absent) and checks rule 7 on the answer.
   */
  private WopiLockResponse send(WopiLockOperation op, String lock, String oldLock) {
    return send(op, lock, oldLock, WopiLockProtocolTest::nonEmptyFile);
  }

  private WopiLockResponse send(
      WopiLockOperation op, String lock, String oldLock, LongSupplier storedSize) {
    Map<String, String> headers = new HashMap<>();
    if (lock != null) {
      headers.put("X-WOPI-Lock", lock);
    }
    if (oldLock != null) {
      headers.put("X-WOPI-OldLock", oldLock);
    }
    WopiLockResponse r = protocol.handle(op, FILE, headers::get, storedSize);
    // rule 7: a 409 carries X-WOPI-Lock; a 200 only for GET_LOCK; a 400 never
    if (r.status() == 409) {
      assertThat(r.lock()).as("409 carries X-WOPI-Lock").isPresent();
      assertThat(r.failureReason()).as("409 explains itself").isPresent();
    } else if (r.status() == 200) {
      assertThat(r.lock().isPresent())
          .as("200 carries X-WOPI-Lock")
          .isEqualTo(op == WopiLockOperation.GET_LOCK);
      assertThat(r.failureReason()).isEmpty();
    } else {
      assertThat(r.lock()).isEmpty();
      assertThat(r.failureReason()).isPresent();
    }
    return r;
  }

  private void lockedWith(String lockId) {
    assertThat(provider.add(FILE, lockId).success()).isTrue();
  }

  private Optional<String> currentLock() {
    return provider.getLock(FILE).map(WopiLockInfo::lockId);
  }

  private static void assertConflict(WopiLockResponse r, String lockHeader) {
    assertThat(r.status()).as("status (%s)", r.failureReason()).isEqualTo(409);
    assertThat(r.lock()).contains(lockHeader);
  }

  private static void assertOk(WopiLockResponse r) {
    assertThat(r.status()).as("status (%s)", r.failureReason()).isEqualTo(200);
  }

  // --- rule 1 and 8: lock ids up to 1024 printable ASCII characters; missing or empty is 400

  @ParameterizedTest
  @EnumSource(
      value = WopiLockOperation.class,
      names = {"LOCK", "REFRESH_LOCK", "UNLOCK", "UNLOCK_AND_RELOCK"})
  void lockOperationsAnswer400ForAMissingEmptyOversizeOrNonAsciiLockHeader(WopiLockOperation op) {
    lockedWith("lock-1");
    String old = op == WopiLockOperation.UNLOCK_AND_RELOCK ? "lock-1" : null;
    assertThat(send(op, null, old).failureReason()).contains("X-WOPI-Lock header is required");
    assertThat(send(op, "", old).failureReason()).contains("X-WOPI-Lock header is empty");
    assertThat(send(op, "   ", old).failureReason()).contains("X-WOPI-Lock header is empty");
    assertThat(send(op, "a".repeat(1025), old).failureReason())
        .contains(
            "X-WOPI-Lock header must be 1 to 1024 printable ASCII characters but had 1025"
                + " characters");
    assertThat(send(op, "caf\u00e9", old).status()).isEqualTo(400);
    assertThat(send(op, "a\u0001", old).status()).isEqualTo(400);
    assertThat(currentLock()).contains("lock-1");
  }

  @Test
  void unlockAndRelockAnswers400ForABadOldLockHeader() {
    lockedWith("lock-1");
    assertThat(send(WopiLockOperation.UNLOCK_AND_RELOCK, "lock-2", null).failureReason())
        .contains("X-WOPI-OldLock header is required");
    assertThat(send(WopiLockOperation.LOCK, "lock-2", "").failureReason())
        .contains("X-WOPI-OldLock header is empty");
    assertThat(send(WopiLockOperation.LOCK, "lock-2", "a".repeat(1025)).status()).isEqualTo(400);
    assertThat(currentLock()).contains("lock-1");
  }

  @Test
  void aLockIdOf1024CharactersIsAccepted() {
    String longest = "L".repeat(1024);
    assertOk(send(WopiLockOperation.LOCK, longest, null));
    assertThat(send(WopiLockOperation.GET_LOCK, null, null).lock()).contains(longest);
    assertConflict(send(WopiLockOperation.LOCK, "other", null), longest);
  }

  // --- rule 2: a lock expires 30 minutes after LOCK, REFRESH_LOCK or UNLOCK_AND_RELOCK

  @Test
  void aLockExpiresThirtyMinutesAfterItsLastRefresh() {
    assertOk(send(WopiLockOperation.LOCK, "lock-1", null));
    clock.advance(Duration.ofMinutes(20));
    assertOk(send(WopiLockOperation.REFRESH_LOCK, "lock-1", null));
    clock.advance(Duration.ofMinutes(30)); // exactly 30:00 after the refresh: still valid
    assertThat(send(WopiLockOperation.GET_LOCK, null, null).lock()).contains("lock-1");
    clock.advance(Duration.ofMillis(1));
    assertThat(send(WopiLockOperation.GET_LOCK, null, null).lock()).contains("");
    assertConflict(send(WopiLockOperation.REFRESH_LOCK, "lock-1", null), "");
  }

  // --- rule 3: LOCK

  @Test
  void lockOnAnUnlockedFileLocksIt() {
    WopiLockResponse r = send(WopiLockOperation.LOCK, "lock-1", null);
    assertOk(r);
    assertThat(r.headers()).isEmpty();
    assertThat(currentLock()).contains("lock-1");
  }

  @Test
  void lockWithTheCurrentIdIsARefresh() {
    lockedWith("lock-1");
    WopiLockInfo before = provider.getLock(FILE).orElseThrow();
    clock.advance(Duration.ofMinutes(10));
    assertOk(send(WopiLockOperation.LOCK, "lock-1", null));
    WopiLockInfo after = provider.getLock(FILE).orElseThrow();
    assertThat(after.lastRefreshed())
        .isEqualTo(before.lastRefreshed().plus(Duration.ofMinutes(10)));
  }

  @Test
  void lockWithAnotherIdIs409WithTheCurrentLock() {
    lockedWith("lock-1");
    WopiLockResponse r = send(WopiLockOperation.LOCK, "lock-2", null);
    assertConflict(r, "lock-1");
    assertThat(r.headers())
        .containsEntry("X-WOPI-Lock", "lock-1")
        .containsKey("X-WOPI-LockFailureReason");
    assertThat(r.failureReason().orElseThrow()).doesNotContain("lock-1").doesNotContain("lock-2");
    assertThat(currentLock()).contains("lock-1");
  }

  // --- rule 4: UnlockAndRelock is LOCK with X-WOPI-OldLock, atomic

  @Test
  void lockWithAMatchingOldLockSwapsTheLock() {
    lockedWith("lock-1");
    assertOk(send(WopiLockOperation.LOCK, "lock-2", "lock-1"));
    assertThat(currentLock()).contains("lock-2");
    assertOk(send(WopiLockOperation.UNLOCK_AND_RELOCK, "lock-3", "lock-2"));
    assertThat(currentLock()).contains("lock-3");
  }

  @Test
  void lockWithAMismatchingOldLockIs409WithTheCurrentLock() {
    lockedWith("lock-1");
    assertConflict(send(WopiLockOperation.LOCK, "lock-3", "lock-2"), "lock-1");
    assertThat(currentLock()).contains("lock-1");
  }

  @Test
  void lockWithAnOldLockOnAnUnlockedFileIs409WithAnEmptyLock() {
    assertConflict(send(WopiLockOperation.LOCK, "lock-2", "lock-1"), "");
    assertThat(currentLock()).isEmpty();
  }

  // --- rule 5: UNLOCK, REFRESH_LOCK, UNLOCK_AND_RELOCK on an unlocked file or with a mismatch

  @ParameterizedTest
  @EnumSource(
      value = WopiLockOperation.class,
      names = {"REFRESH_LOCK", "UNLOCK", "UNLOCK_AND_RELOCK"})
  void onAnUnlockedFileTheAnswerIs409WithAnEmptyLock(WopiLockOperation op) {
    WopiLockResponse r = send(op, "lock-1", "lock-0");
    assertConflict(r, "");
    assertThat(r.failureReason()).contains("File not locked");
    assertThat(currentLock()).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(
      value = WopiLockOperation.class,
      names = {"REFRESH_LOCK", "UNLOCK", "UNLOCK_AND_RELOCK"})
  void withAMismatchTheAnswerIs409WithTheCurrentLock(WopiLockOperation op) {
    lockedWith("lock-1");
    assertConflict(send(op, "lock-2", "lock-2"), "lock-1");
    assertThat(currentLock()).contains("lock-1");
  }

  @Test
  void unlockWithTheCurrentIdUnlocks() {
    lockedWith("lock-1");
    assertOk(send(WopiLockOperation.UNLOCK, "lock-1", null));
    assertThat(currentLock()).isEmpty();
    assertConflict(send(WopiLockOperation.UNLOCK, "lock-1", null), "");
  }

  @Test
  void refreshLockWithTheCurrentIdRefreshes() {
    lockedWith("lock-1");
    clock.advance(Duration.ofMinutes(29));
    assertOk(send(WopiLockOperation.REFRESH_LOCK, "lock-1", null));
    clock.advance(Duration.ofMinutes(29));
    assertThat(currentLock()).contains("lock-1");
  }

  @Test
  void lockUnlockCycleRoundTrips() {
    assertOk(send(WopiLockOperation.LOCK, "lock-1", null));
    assertOk(send(WopiLockOperation.REFRESH_LOCK, "lock-1", null));
    assertOk(send(WopiLockOperation.LOCK, "lock-2", "lock-1"));
    assertOk(send(WopiLockOperation.UNLOCK, "lock-2", null));
    assertOk(send(WopiLockOperation.LOCK, "lock-3", null));
    assertThat(send(WopiLockOperation.GET_LOCK, null, null).lock()).contains("lock-3");
  }

  // --- rule 6: GET_LOCK

  @Test
  void getLockAlwaysAnswers200WithTheLockOrEmpty() {
    WopiLockResponse unlocked = send(WopiLockOperation.GET_LOCK, null, null);
    assertOk(unlocked);
    assertThat(unlocked.headers()).containsExactly(Map.entry("X-WOPI-Lock", ""));
    lockedWith("lock-1");
    assertThat(send(WopiLockOperation.GET_LOCK, null, null).lock()).contains("lock-1");
    assertThat(send(WopiLockOperation.GET_LOCK, "ignored\u00e9", "x").lock()).contains("lock-1");
  }

  @Test
  void getLockOfALockThatIsNotAWopiLockIdIs409WithAnEmptyLock() {
    nonWopiLock();
    WopiLockResponse r = send(WopiLockOperation.GET_LOCK, null, null);
    assertConflict(r, "");
    assertThat(r.failureReason())
        .contains("The file is locked by a lock that is not a WOPI lock id");
  }

  /** A lock some other interface put on the file, whose data is not a WOPI lock id (rule 10). */
  private void nonWopiLock() {
    assertThat(
            backend
                .acquire(provider.keyOf(FILE), "kernel-owner", "caf\u00e9", Duration.ofMinutes(5))
                .join()
                .granted())
        .isTrue();
  }

  // --- rule 9: PutFile

  @Test
  void putFileOnALockedFileNeedsTheMatchingLock() {
    lockedWith("lock-1");
    AtomicInteger sizeCalls = new AtomicInteger();
    LongSupplier size =
        () -> {
          sizeCalls.incrementAndGet();
          return 42;
        };
    assertOk(send(WopiLockOperation.PUT_FILE, "lock-1", null, size));
    assertConflict(send(WopiLockOperation.PUT_FILE, "lock-2", null, size), "lock-1");
    assertConflict(send(WopiLockOperation.PUT_FILE, null, null, size), "lock-1");
    assertConflict(send(WopiLockOperation.PUT_FILE, "", null, size), "lock-1");
    assertConflict(send(WopiLockOperation.PUT_FILE, "lock-1\u00e9", null, size), "lock-1");
    assertConflict(
        send(WopiLockOperation.PUT_FILE, null, null, WopiLockProtocolTest::emptyFile), "lock-1");
    assertThat(sizeCalls).as("the size is not needed on a locked file").hasValue(0);
  }

  @Test
  void putFileOnAnUnlockedFileProceedsOnlyForAnEmptyStoredFile() {
    assertOk(send(WopiLockOperation.PUT_FILE, null, null, WopiLockProtocolTest::emptyFile));
    assertOk(send(WopiLockOperation.PUT_FILE, "lock-1", null, WopiLockProtocolTest::emptyFile));
    WopiLockResponse r =
        send(WopiLockOperation.PUT_FILE, null, null, WopiLockProtocolTest::nonEmptyFile);
    assertConflict(r, "");
    assertThat(r.failureReason())
        .contains("File not locked: only an empty file may be written without a lock");
    assertConflict(
        send(WopiLockOperation.PUT_FILE, "lock-1", null, WopiLockProtocolTest::nonEmptyFile), "");
    assertThat(currentLock()).as("a header never takes a lock").isEmpty();
  }

  @Test
  void putFileNeedsTheStoredSize() {
    assertThatThrownBy(() -> protocol.handle(WopiLockOperation.PUT_FILE, FILE, h -> null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("PUT_FILE needs the stored file size");
  }

  // --- rule 10: RenameFile, DeleteFile, PutRelativeFile, non-WOPI locks

  @Test
  void renameFileProceedsWhenUnlockedOrMatchingElse409() {
    assertOk(send(WopiLockOperation.RENAME_FILE, null, null));
    assertOk(send(WopiLockOperation.RENAME_FILE, "any", null));
    lockedWith("lock-1");
    assertOk(send(WopiLockOperation.RENAME_FILE, "lock-1", null));
    assertConflict(send(WopiLockOperation.RENAME_FILE, "lock-2", null), "lock-1");
    assertConflict(send(WopiLockOperation.RENAME_FILE, null, null), "lock-1");
  }

  @ParameterizedTest
  @EnumSource(
      value = WopiLockOperation.class,
      names = {"DELETE_FILE", "PUT_RELATIVE_FILE"})
  void deleteAndOverwriteAreRefusedOnAnyLockEvenTheCallers(WopiLockOperation op) {
    assertOk(send(op, null, null));
    lockedWith("lock-1");
    assertConflict(send(op, null, null), "lock-1");
    assertConflict(send(op, "lock-1", null), "lock-1");
    assertThat(currentLock()).contains("lock-1");
  }

  @Test
  void aLockFromAnotherInterfaceIsReportedAsEmptyWhenNotRepresentable() {
    nonWopiLock();
    assertConflict(send(WopiLockOperation.LOCK, "lock-1", null), "");
    assertConflict(send(WopiLockOperation.UNLOCK, "lock-1", null), "");
    assertConflict(send(WopiLockOperation.DELETE_FILE, null, null), "");
    assertConflict(send(WopiLockOperation.RENAME_FILE, "caf\u00e9", null), "");
    assertConflict(
        send(WopiLockOperation.PUT_FILE, "caf\u00e9", null, WopiLockProtocolTest::emptyFile), "");
  }

  // --- comparers through the protocol

  @Test
  void theJsonShapedComparerAbsorbsMutatedJsonLockIds() {
    WopiLockProtocol json =
        new WopiLockProtocol(
            WopiLockProvider.builder(backend)
                .clock(clock)
                .comparer(WopiLockComparer.jsonShaped())
                .build());
    String original = "{\"S\":\"AB12\",\"F\":0}";
    String mutated = "{\"S\":\"AB12\",\"F\":4,\"E\":2}";
    assertOk(json.lock(FILE, original));
    assertOk(json.lock(FILE, mutated));
    assertOk(json.refreshLock(FILE, mutated));
    assertOk(json.checkPutFile(FILE, mutated, WopiLockProtocolTest::nonEmptyFile));
    assertThat(json.getLock(FILE).lock()).contains(original);
    assertConflict(
        protocol.checkPutFile(FILE, mutated, WopiLockProtocolTest::nonEmptyFile), original);
    assertConflict(json.lock(FILE, "{\"S\":\"AB13\"}"), original);
    assertOk(json.unlock(FILE, mutated));
  }

  @Test
  void responsesRejectImpossibleCombinations() {
    assertThatThrownBy(() -> new WopiLockResponse(409, Optional.empty(), Optional.empty()))
        .hasMessage("a 409 must carry X-WOPI-Lock");
    assertThatThrownBy(() -> new WopiLockResponse(500, Optional.empty(), Optional.empty()))
        .hasMessage("status must be 200, 400 or 409 but was 500");
    assertThatThrownBy(
            () ->
                new WopiLockResult(
                    true,
                    Optional.of(new WopiLockInfo("f", "l", StepClock.EPOCH, StepClock.EPOCH))))
        .hasMessage("a success carries no current lock");
  }
}
