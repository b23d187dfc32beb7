package io.hostloom.wopihost.tomcat;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The host's connection-level limits, beside {@code WopiHostProperties} under the same {@code
 * wopi-host} prefix.
 *
 * @param maxHeaderTime the longest a request's line and headers may take to arrive, from their
 *     first byte; a slower client's connection is closed (each read is also bounded by {@code
 *     server.tomcat.connection-timeout})
 */
@ConfigurationProperties("wopi-host")
public record EdgeProperties(@DefaultValue("10s") Duration maxHeaderTime) {
  /**
   * @throws IllegalArgumentException when {@code maxHeaderTime} is not positive
   */
  public EdgeProperties {
    if (maxHeaderTime != null && (maxHeaderTime.isNegative() || maxHeaderTime.isZero())) {
      throw new IllegalArgumentException(
          "wopi-host.max-header-time must be positive but was " + maxHeaderTime);
    }
  }
}
