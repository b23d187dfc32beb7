package io.hostloom.leadership;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Lease and cadence of one elector. Immutable; built by {@link #builder()}, which rejects bad
 * values listing every problem at once, each naming its key.
 */
public final class LeadershipOptions {
  /** The prefix of the keys in validation messages (the Spring Boot starter adds the role). */
  public static final String PREFIX = "hostloom.leadership.";

  public static final String KEY_LEASE = "lease";
  public static final String KEY_RENEW_INTERVAL = "renew-interval";
  public static final String KEY_RETRY_INTERVAL = "retry-interval";
  public static final String KEY_JITTER = "jitter";

  public static final Duration DEFAULT_LEASE = Duration.ofSeconds(15);
  public static final Duration DEFAULT_RENEW_INTERVAL = Duration.ofSeconds(5);
  public static final Duration DEFAULT_RETRY_INTERVAL = Duration.ofSeconds(2);
  public static final Duration DEFAULT_JITTER = Duration.ofSeconds(1);

  /** All defaults. */
  public static final LeadershipOptions DEFAULTS = builder().build();

  private final Duration lease;
  private final Duration renewInterval;
  private final Duration retryInterval;
  private final Duration jitter;

  private LeadershipOptions(Builder b) {
    this.lease = b.lease;
    this.renewInterval = b.renewInterval;
    this.retryInterval = b.retryInterval;
    this.jitter = b.jitter;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these values. */
  public Builder toBuilder() {
    return builder()
        .lease(lease)
        .renewInterval(renewInterval)
        .retryInterval(retryInterval)
        .jitter(jitter);
  }

  /** The lease requested with every grant and renewal (default {@link #DEFAULT_LEASE}). */
  public Duration lease() {
    return lease;
  }

  /**
   * How long after each answered renewal the lock sends the next one for a leader (default {@link
   * #DEFAULT_RENEW_INTERVAL}); at most half the lease. A failed renewal is not retried a renew
   * interval later but by the lock's own rule, after half the time left (at least a twentieth of
   * the lease, at most the time left), so a failure that leaves lease time leaves time for retries.
   */
  public Duration renewInterval() {
    return renewInterval;
  }

  /**
   * How long a follower waits between attempts, and a leader that lost or resigned waits before it
   * tries again (default {@link #DEFAULT_RETRY_INTERVAL}).
   */
  public Duration retryInterval() {
    return retryInterval;
  }

  /**
   * The most added at random to each retry interval, so candidates do not call in step (default
   * {@link #DEFAULT_JITTER}; zero for none).
   */
  public Duration jitter() {
    return jitter;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LeadershipOptions other
        && lease.equals(other.lease)
        && renewInterval.equals(other.renewInterval)
        && retryInterval.equals(other.retryInterval)
        && jitter.equals(other.jitter);
  }

  @Override
  public int hashCode() {
    return Objects.hash(lease, renewInterval, retryInterval, jitter);
  }

  @Override
  public String toString() {
    return "LeadershipOptions[lease="
        + lease
        + ", renewInterval="
        + renewInterval
        + ", retryInterval="
        + retryInterval
        + ", jitter="
        + jitter
        + "]";
  }

  /** Builder; every setter's default is the matching {@code DEFAULT_*} constant. */
  public static final class Builder {
    private Duration lease = DEFAULT_LEASE;
    private Duration renewInterval = DEFAULT_RENEW_INTERVAL;
    private Duration retryInterval = DEFAULT_RETRY_INTERVAL;
    private Duration jitter = DEFAULT_JITTER;

    private Builder() {}

    public Builder lease(Duration lease) {
      this.lease = Objects.requireNonNull(lease, KEY_LEASE);
      return this;
    }

    public Builder renewInterval(Duration renewInterval) {
      this.renewInterval = Objects.requireNonNull(renewInterval, KEY_RENEW_INTERVAL);
      return this;
    }

    public Builder retryInterval(Duration retryInterval) {
      this.retryInterval = Objects.requireNonNull(retryInterval, KEY_RETRY_INTERVAL);
      return this;
    }

    public Builder jitter(Duration jitter) {
      this.jitter = Objects.requireNonNull(jitter, KEY_JITTER);
      return this;
    }

    /**
     * Every problem with these values, each naming its key under {@code prefix} (for example {@code
     * hostloom.leadership.roles.billing.}); empty when valid.
     */
    public List<String> validate(String prefix) {
      List<String> problems = new ArrayList<>();
      if (lease.isNegative() || lease.isZero()) {
        problems.add(prefix + KEY_LEASE + " must be positive, but was " + lease);
      }
      if (renewInterval.isNegative() || renewInterval.isZero()) {
        problems.add(prefix + KEY_RENEW_INTERVAL + " must be positive, but was " + renewInterval);
      } else if (renewInterval.multipliedBy(2).compareTo(lease) > 0) {
        problems.add(
            prefix
                + KEY_RENEW_INTERVAL
                + " must be at most half of "
                + prefix
                + KEY_LEASE
                + " ("
                + lease
                + "), but was "
                + renewInterval);
      }
      if (retryInterval.isNegative() || retryInterval.isZero()) {
        problems.add(prefix + KEY_RETRY_INTERVAL + " must be positive, but was " + retryInterval);
      }
      if (jitter.isNegative()) {
        problems.add(prefix + KEY_JITTER + " must not be negative, but was " + jitter);
      }
      return problems;
    }

    /**
     * @throws IllegalArgumentException listing every problem, each naming its key under {@link
     *     #PREFIX}
     */
    public LeadershipOptions build() {
      return build(PREFIX);
    }

    /**
     * @throws IllegalArgumentException listing every problem, each naming its key under {@code
     *     prefix}
     */
    public LeadershipOptions build(String prefix) {
      List<String> problems = validate(prefix);
      if (!problems.isEmpty()) {
        throw new IllegalArgumentException(
            "invalid leadership options: " + String.join("; ", problems));
      }
      return new LeadershipOptions(this);
    }
  }
}
