package io.hostloom.springboot.leadership;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code hostloom.leadership.roles.<role>.*}: one leader elector per role on the starter's lock.
 * Unset durations take the {@code LeadershipOptions} defaults (lease 15 s, renew 5 s, retry 2 s,
 * jitter 1 s).
 */
@ConfigurationProperties("hostloom.leadership")
public class HostLoomLeadershipProperties {
  /** The roles to elect a leader for, by role name (the lock key is {@code leader:<role>}). */
  private final Map<String, Role> roles = new LinkedHashMap<>();

  public Map<String, Role> getRoles() {
    return roles;
  }

  /** One role. */
  public static class Role {
    /** Whether an elector runs for this role. */
    private boolean enabled = true;

    /** The lease of each grant and renewal. Default 15 s. */
    private Duration lease;

    /** How often the leader renews; at most half the lease. Default 5 s. */
    private Duration renewInterval;

    /** How long a follower waits between attempts. Default 2 s. */
    private Duration retryInterval;

    /** The most added at random to each retry interval. Default 1 s. */
    private Duration jitter;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Duration getLease() {
      return lease;
    }

    public void setLease(Duration lease) {
      this.lease = lease;
    }

    public Duration getRenewInterval() {
      return renewInterval;
    }

    public void setRenewInterval(Duration renewInterval) {
      this.renewInterval = renewInterval;
    }

    public Duration getRetryInterval() {
      return retryInterval;
    }

    public void setRetryInterval(Duration retryInterval) {
      this.retryInterval = retryInterval;
    }

    public Duration getJitter() {
      return jitter;
    }

    public void setJitter(Duration jitter) {
      this.jitter = jitter;
    }
  }
}
