package io.hostloom.testkit.wopi;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.testing.ManualLockClock;
import io.hostloom.locking.time.LockClock;
import io.hostloom.wopi.WopiLockComparer;
import io.hostloom.wopi.WopiLockInfo;
import io.hostloom.wopi.WopiLockProtocol;
import io.hostloom.wopi.WopiLockProvider;
import io.hostloom.wopi.WopiLockResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link WopiLockConformanceSuite} for backends whose expiry follows a {@link ManualLockClock} (the
 * in-memory backend): the full 30-minute expiry, time moved explicitly, reported times exact, plus
 * the time-exact tests a real server cannot run, such as the 30:00 boundary.
 */
public abstract class WopiLockManualClockConformanceSuite extends WopiLockConformanceSuite {

  /** The clock the backend from {@link #newBackend()} expires leases by. */
  protected abstract ManualLockClock manualClock();

  @Override
  protected final LockClock clock() {
    return manualClock();
  }

  @Override
  protected Duration expiry() {
    return WopiLockProvider.DEFAULT_EXPIRY;
  }

  @Override
  protected final void passTime(Duration duration) {
    manualClock().advance(duration);
  }

  @Override
  protected Duration expiryTolerance() {
    return WopiLockProvider.EXPIRY_GRACE;
  }

  @Override
  protected Duration pollInterval() {
    return Duration.ofMillis(1);
  }

  @Override
  protected Duration timeTolerance() {
    return Duration.ZERO;
  }

  // ------------------------------------------------------------------------------------------
  // The 30:00 boundary: a lock exactly the expiry old is valid (the WOPI reference's strict
  // "created + 30 min < now"), and expired one millisecond later (the provider's grace).

  private static final Duration ONE_MS = Duration.ofMillis(1);

  @Test
  void aLockIsPresentAfter29MinutesAndGoneAfter31() {
    String file = newFileId();
    assertThat(first().add(file, "lock-1").success()).isTrue();
    passTime(Duration.ofMinutes(29));
    assertThat(second().getLock(file)).isPresent();
    passTime(Duration.ofMinutes(2));
    assertThat(second().getLock(file)).isEmpty();
  }

  @Test
  void aLockExactlyTheExpiryOldIsStillValidAndExpiresOneMillisecondLater() {
    String file = newFileId();
    Instant t0 = clock().instant();
    assertThat(first().add(file, "lock-1").success()).isTrue();
    passTime(expiry());
    Instant now = clock().instant();
    WopiLockInfo lock = lockOf(second(), file);
    assertThat(lock.lastRefreshed()).isEqualTo(t0);
    assertThat(lock.expiresAt()).isEqualTo(t0.plus(expiry())).isEqualTo(now);
    assertThat(lock.isExpiredAt(now)).isFalse();
    assertThat(lock.isExpiredAt(now.plusNanos(1))).isTrue();
    assertThat(second().add(file, "lock-2").currentLockIdOrEmpty()).isEqualTo("lock-1");
    passTime(ONE_MS);
    assertThat(second().getLock(file)).isEmpty();
    assertThat(second().add(file, "lock-2").success()).isTrue();
  }

  @Test
  void refreshRelockAndRemoveSucceedAtExactlyTheExpiry() {
    String refreshed = newFileId();
    String relocked = newFileId();
    String removed = newFileId();
    for (String file : new String[] {refreshed, relocked, removed}) {
      assertThat(first().add(file, "lock-1").success()).isTrue();
    }
    passTime(expiry());
    Instant now = clock().instant();
    assertThat(second().refresh(refreshed, "lock-1").success()).isTrue();
    assertThat(second().unlockAndRelock(relocked, "lock-2", "lock-1").success()).isTrue();
    assertThat(second().remove(removed, "lock-1").success()).isTrue();
    for (String file : new String[] {refreshed, relocked}) {
      WopiLockInfo lock = lockOf(first(), file);
      assertThat(lock.lastRefreshed()).isEqualTo(now);
      assertThat(lock.expiresAt()).isEqualTo(now.plus(expiry()));
    }
    assertThat(lockOf(first(), relocked).lockId()).isEqualTo("lock-2");
    assertThat(first().getLock(removed)).isEmpty();
  }

  @Test
  void refreshRelockAndRemoveFailOneMillisecondAfterTheExpiry() {
    String refreshed = newFileId();
    String relocked = newFileId();
    String removed = newFileId();
    for (String file : new String[] {refreshed, relocked, removed}) {
      assertThat(first().add(file, "lock-1").success()).isTrue();
    }
    passTime(expiry().plus(ONE_MS));
    assertThat(second().refresh(refreshed, "lock-1")).isEqualTo(failedUnlocked());
    assertThat(second().unlockAndRelock(relocked, "lock-2", "lock-1")).isEqualTo(failedUnlocked());
    assertThat(second().remove(removed, "lock-1")).isEqualTo(failedUnlocked());
    for (String file : new String[] {refreshed, relocked, removed}) {
      assertThat(first().getLock(file)).isEmpty();
    }
  }

  @Test
  void aRefreshRestartsTheFullExpiryToTheMillisecond() {
    String file = newFileId();
    assertThat(first().add(file, "lock-1").success()).isTrue();
    passTime(Duration.ofMinutes(20));
    Instant refreshedAt = clock().instant();
    assertThat(second().refresh(file, "lock-1").success()).isTrue();
    passTime(expiry());
    WopiLockInfo lock = lockOf(first(), file);
    assertThat(lock.lastRefreshed()).isEqualTo(refreshedAt);
    assertThat(lock.expiresAt()).isEqualTo(clock().instant());
    passTime(ONE_MS);
    assertThat(first().getLock(file)).isEmpty();
  }

  @Test
  void aConfiguredExpiryHasTheSameBoundary() {
    Duration expiry = Duration.ofMinutes(1);
    WopiLockProvider p =
        WopiLockProvider.builder(newBackend()).expiry(expiry).clock(clock()).build();
    String file = newFileId();
    Instant t0 = clock().instant();
    assertThat(p.add(file, "lock-1").success()).isTrue();
    passTime(expiry);
    WopiLockInfo lock = lockOf(p, file);
    assertThat(lock.lastRefreshed()).isEqualTo(t0);
    assertThat(lock.expiresAt()).isEqualTo(clock().instant());
    passTime(ONE_MS);
    assertThat(p.getLock(file)).isEmpty();
  }

  @Test
  void theProtocolAnswersByTheSameBoundary() {
    WopiLockProtocol protocol = new WopiLockProtocol(first());
    WopiLockProtocol other = new WopiLockProtocol(newProvider(WopiLockComparer.ordinal()));
    String file = newFileId();
    assertThat(protocol.lock(file, "lock-1").status()).isEqualTo(200);
    passTime(expiry());
    assertThat(other.getLock(file).lock()).contains("lock-1");
    assertThat(other.lock(file, "lock-2").lock()).contains("lock-1");
    passTime(ONE_MS);
    assertThat(other.getLock(file).lock()).contains("");
    assertThat(other.lock(file, "lock-2").status()).isEqualTo(200);
    assertThat(protocol.refreshLock(file, "lock-1").lock()).contains("lock-2");
  }

  private static WopiLockResult failedUnlocked() {
    return WopiLockResult.failed(Optional.empty());
  }
}
