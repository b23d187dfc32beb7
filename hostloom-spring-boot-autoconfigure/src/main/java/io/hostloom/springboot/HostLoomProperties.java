package io.hostloom.springboot;

import io.hostloom.locking.LockingOptions;
import io.hostloom.wopi.WopiLockProvider;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The backend-neutral {@code hostloom.*} settings: the backend's name, the lock's options and the
 * WOPI provider's. Each backend's own settings ({@code hostloom.redis.*}, ...) live in the
 * backend's package next to its auto-configuration. Bound as plain values and validated together by
 * {@link HostLoomSettings}, so one start-up failure lists every problem at once. Every default is
 * the kernel's or the WOPI provider's {@code DEFAULT_*} constant.
 */
@ConfigurationProperties("hostloom")
public class HostLoomProperties {

  /**
   * Where locks live: memory, redis, azure, postgres, etcd, zookeeper or mariadb (or a backend
   * another module adds). No default: with locking enabled, a backend must be chosen (or a
   * LockBackend bean defined).
   */
  private String backend;

  private final Locking locking = new Locking();
  private final Wopi wopi = new Wopi();
  private final WarmUp warmUp = new WarmUp();

  public String getBackend() {
    return backend;
  }

  public void setBackend(String backend) {
    this.backend = backend;
  }

  public Locking getLocking() {
    return locking;
  }

  public Wopi getWopi() {
    return wopi;
  }

  public WarmUp getWarmUp() {
    return warmUp;
  }

  /** Connecting the backend at start-up instead of on the first lock. */
  public static class WarmUp {
    /**
     * Whether start-up warms up the LockBackend (connects, loads scripts, starts subscriptions)
     * when the backend can, so the first lock costs what every later one does. A failed warm-up is
     * logged and start-up goes on; the first operation then connects.
     */
    private boolean enabled = true;

    /** How long start-up waits for the warm-up before it goes on without it. */
    private Duration timeout = Duration.ofSeconds(10);

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Duration getTimeout() {
      return timeout;
    }

    public void setTimeout(Duration timeout) {
      this.timeout = timeout;
    }
  }

  /** The DistributedLock's settings. */
  public static class Locking {
    /** The lock namespace: lower-case letters, digits and dashes; prefixes every key. Required. */
    private String namespace;

    /** Whether locks coordinate through the backend; false runs actions without locking. */
    private boolean enabled = LockingOptions.DEFAULT_ENABLED;

    /** The lease of an acquisition that asks for none. */
    private Duration defaultLease = LockingOptions.DEFAULT_LEASE;

    /** The longest lease an acquisition or extension may get (longer requests are capped). */
    private Duration maxLease = LockingOptions.DEFAULT_MAX_LEASE;

    /** How long automatic extension keeps a lock at most. */
    private Duration maxHold = LockingOptions.DEFAULT_MAX_HOLD;

    /**
     * Whether the last automatic extension is shortened so the lease ends exactly at acquisition
     * request + max-hold (otherwise a hold can reach max-hold plus one lease).
     */
    private boolean strictMaxHold = LockingOptions.DEFAULT_STRICT_MAX_HOLD;

    /**
     * Whether a waiting acquisition also tries when the backend signals a release (backends with a
     * release signal only), instead of only at the end of each retry delay.
     */
    private boolean wakeOnRelease = LockingOptions.DEFAULT_WAKE_ON_RELEASE;

    /**
     * The retry policy between acquisition attempts, e.g. linear:10x50ms+50ms, interval:5x100ms,
     * exponential:6x10ms..1s*2, immediate:3 or default.
     */
    private String retry = "default";

    /** Whether held locks are extended automatically (at half the remaining lease). */
    private boolean autoExtend = LockingOptions.DEFAULT_AUTO_EXTEND;

    /** Whether a nested acquisition of a key the same thread holds fails fast. */
    private boolean detectReentrancy = LockingOptions.DEFAULT_DETECT_REENTRANCY;

    /** The longest key accepted, in UTF-16 units. */
    private int maxKeyLength = LockingOptions.DEFAULT_MAX_KEY_LENGTH;

    public String getNamespace() {
      return namespace;
    }

    public void setNamespace(String namespace) {
      this.namespace = namespace;
    }

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Duration getDefaultLease() {
      return defaultLease;
    }

    public void setDefaultLease(Duration defaultLease) {
      this.defaultLease = defaultLease;
    }

    public Duration getMaxLease() {
      return maxLease;
    }

    public void setMaxLease(Duration maxLease) {
      this.maxLease = maxLease;
    }

    public Duration getMaxHold() {
      return maxHold;
    }

    public void setMaxHold(Duration maxHold) {
      this.maxHold = maxHold;
    }

    public boolean isStrictMaxHold() {
      return strictMaxHold;
    }

    public void setStrictMaxHold(boolean strictMaxHold) {
      this.strictMaxHold = strictMaxHold;
    }

    public boolean isWakeOnRelease() {
      return wakeOnRelease;
    }

    public void setWakeOnRelease(boolean wakeOnRelease) {
      this.wakeOnRelease = wakeOnRelease;
    }

    public String getRetry() {
      return retry;
    }

    public void setRetry(String retry) {
      this.retry = retry;
    }

    public boolean isAutoExtend() {
      return autoExtend;
    }

    public void setAutoExtend(boolean autoExtend) {
      this.autoExtend = autoExtend;
    }

    public boolean isDetectReentrancy() {
      return detectReentrancy;
    }

    public void setDetectReentrancy(boolean detectReentrancy) {
      this.detectReentrancy = detectReentrancy;
    }

    public int getMaxKeyLength() {
      return maxKeyLength;
    }

    public void setMaxKeyLength(int maxKeyLength) {
      this.maxKeyLength = maxKeyLength;
    }
  }

  /** The WopiLockProvider's settings. */
  public static class Wopi {
    /**
     * Which lock ids are equal: ordinal (byte-exact, the WOPI rule) or json-shaped (also equal when
     * both are JSON objects with the same string property "S"). A WopiLockComparer bean replaces
     * both.
     */
    private String lockComparer = "ordinal";

    /** How long a WOPI lock lives after Lock, RefreshLock or UnlockAndRelock. */
    private Duration lockExpiry = WopiLockProvider.DEFAULT_EXPIRY;

    /**
     * The prefix of every WOPI lock key in the backend. Not used with hostloom.backend=azure unless
     * hostloom.azure.dotnet-wopi-layout=false (the .NET layout names blobs by the file id alone).
     */
    private String keyPrefix = WopiLockProvider.DEFAULT_KEY_PREFIX;

    public String getLockComparer() {
      return lockComparer;
    }

    public void setLockComparer(String lockComparer) {
      this.lockComparer = lockComparer;
    }

    public Duration getLockExpiry() {
      return lockExpiry;
    }

    public void setLockExpiry(Duration lockExpiry) {
      this.lockExpiry = lockExpiry;
    }

    public String getKeyPrefix() {
      return keyPrefix;
    }

    public void setKeyPrefix(String keyPrefix) {
      this.keyPrefix = keyPrefix;
    }
  }
}
