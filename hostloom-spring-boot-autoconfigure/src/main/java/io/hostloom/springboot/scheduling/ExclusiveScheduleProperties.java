package io.hostloom.springboot.scheduling;

import io.hostloom.scheduling.ScheduleOptions;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** Defaults of {@link ExclusiveSchedule} ({@code hostloom.scheduling.*}). */
@ConfigurationProperties(prefix = "hostloom.scheduling")
public class ExclusiveScheduleProperties {
  /** Whether {@code @ExclusiveSchedule} methods are guarded; when false they run unguarded. */
  private boolean enabled = true;

  /** The lease of a schedule whose annotation sets none. */
  private Duration defaultLease = ScheduleOptions.DEFAULT_LEASE;

  /** The minimum hold of a schedule whose annotation sets none. */
  private Duration defaultMinimumHold = Duration.ZERO;

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

  public Duration getDefaultMinimumHold() {
    return defaultMinimumHold;
  }

  public void setDefaultMinimumHold(Duration defaultMinimumHold) {
    this.defaultMinimumHold = defaultMinimumHold;
  }
}
