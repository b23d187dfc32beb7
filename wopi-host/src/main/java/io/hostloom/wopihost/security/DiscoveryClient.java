package io.hostloom.wopihost.security;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fetches and caches a WOPI client's discovery document. The cache lives {@link #MAX_AGE}; a failed
 * proof check may ask for a refresh (the client may have rotated its keys), at most once per {@link
 * #MIN_REFRESH_INTERVAL}. When the discovery cannot be fetched, the last good copy is kept.
 */
public final class DiscoveryClient {
  private static final Logger log = LoggerFactory.getLogger(DiscoveryClient.class);

  static final Duration MAX_AGE = Duration.ofHours(12);
  static final Duration MIN_REFRESH_INTERVAL = Duration.ofMinutes(1);
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final URI url;
  private final Clock clock;
  private final HttpClient http;
  private WopiDiscovery cached;
  private Instant fetchedAt = Instant.MIN;

  public DiscoveryClient(URI url, Clock clock) {
    this.url = url;
    this.clock = clock;
    this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  }

  public URI url() {
    return url;
  }

  /** The discovery, fetched now when there is no fresh copy; empty when it was never fetched. */
  public synchronized Optional<WopiDiscovery> get() {
    if (cached == null || clock.instant().isAfter(fetchedAt.plus(MAX_AGE))) {
      fetch();
    }
    return Optional.ofNullable(cached);
  }

  /**
   * Re-fetches unless the last fetch is younger than {@link #MIN_REFRESH_INTERVAL}.
   *
   * @return whether a new copy was fetched
   */
  public synchronized boolean refresh() {
    if (clock.instant().isBefore(fetchedAt.plus(MIN_REFRESH_INTERVAL))) {
      return false;
    }
    return fetch();
  }

  private boolean fetch() {
    fetchedAt = clock.instant();
    try {
      HttpResponse<InputStream> r =
          http.send(
              HttpRequest.newBuilder(url).timeout(TIMEOUT).GET().build(),
              HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream body = r.body()) {
        if (r.statusCode() != 200) {
          throw new IOException("HTTP " + r.statusCode());
        }
        cached = WopiDiscovery.parse(body);
      }
      return true;
    } catch (IOException e) {
      log.warn("Cannot fetch WOPI discovery from {}: {}", url, e.getMessage());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
