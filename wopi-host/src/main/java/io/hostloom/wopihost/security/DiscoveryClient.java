package io.hostloom.wopihost.security;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a WOPI client's discovery document, fetched in the background: once at {@link #start()}
 * (bounded by the fetch timeout), then every {@link #MAX_AGE}; after a failed fetch it retries with
 * exponential backoff from {@link #FIRST_RETRY} up to {@link #MAX_RETRY}. {@link #get()} never
 * blocks: requests use the last good copy, or fail fast when there never was one. A failed proof
 * check may ask for an early re-fetch ({@link #requestRefresh()}, at most once per {@link
 * #MIN_REFRESH_INTERVAL}). Every fetch, body included, is bounded by the timeout.
 *
 * <p>The discovery URL must be {@code https}; {@code http} only for a loopback host and only when
 * explicitly allowed (tests). Actions whose URL is not {@code https} (or allowed {@code http} on
 * loopback) are dropped, so a {@code javascript:} URL never becomes a form action.
 */
public final class DiscoveryClient implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DiscoveryClient.class);

  static final Duration MAX_AGE = Duration.ofHours(12);
  static final Duration MIN_REFRESH_INTERVAL = Duration.ofMinutes(1);
  static final Duration FIRST_RETRY = Duration.ofSeconds(1);
  static final Duration MAX_RETRY = Duration.ofMinutes(5);

  private final URI url;
  private final boolean allowInsecureLocalhost;
  private final Duration timeout;
  private final HttpClient http;
  private final ScheduledExecutorService scheduler;
  private volatile WopiDiscovery cached;
  private volatile long lastAttemptNanos;
  private Duration backoff = FIRST_RETRY;
  private ScheduledFuture<?> next;

  /**
   * @param url the client's {@code /hosting/discovery} URL
   * @param allowInsecureLocalhost whether {@code http} is accepted for loopback hosts (tests)
   * @param timeout the bound of one fetch, connection and body included
   * @throws IllegalArgumentException when {@code url} is not acceptable ({@link #checkUrl})
   */
  public DiscoveryClient(URI url, boolean allowInsecureLocalhost, Duration timeout) {
    checkUrl(url, allowInsecureLocalhost);
    this.url = url;
    this.allowInsecureLocalhost = allowInsecureLocalhost;
    this.timeout = timeout;
    this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "wopi-discovery");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Whether {@code url} may be used for discovery or as an action URL: {@code https}, or {@code
   * http} on a loopback host when {@code allowInsecureLocalhost}.
   */
  public static boolean isAcceptable(URI url, boolean allowInsecureLocalhost) {
    String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
    if (url.getHost() == null) {
      return false;
    }
    if (scheme.equals("https")) {
      return true;
    }
    return scheme.equals("http") && allowInsecureLocalhost && isLoopback(url.getHost());
  }

  /**
   * @throws IllegalArgumentException when {@code url} is not {@link #isAcceptable acceptable}
   */
  public static void checkUrl(URI url, boolean allowInsecureLocalhost) {
    if (!isAcceptable(url, allowInsecureLocalhost)) {
      throw new IllegalArgumentException(
          "wopi-host.discovery-url must be an https URL but was "
              + url
              + " (http only for a loopback host with"
              + " wopi-host.discovery-allow-insecure-localhost=true)");
    }
  }

  private static boolean isLoopback(String host) {
    String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    if (h.equalsIgnoreCase("localhost")) {
      return true;
    }
    if (!h.matches("[0-9.]+|[0-9a-fA-F:]+")) {
      return false; // a name: no DNS look-up here
    }
    try {
      return InetAddress.getByName(h).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  public URI url() {
    return url;
  }

  /** Fetches once now (bounded by the timeout), then keeps the copy fresh in the background. */
  public void start() {
    attempt();
  }

  /** The last good discovery; empty when none was ever fetched. Never blocks. */
  public Optional<WopiDiscovery> get() {
    return Optional.ofNullable(cached);
  }

  /**
   * Asks for a re-fetch in the background (the client may have rotated its keys), unless the last
   * attempt is younger than {@link #MIN_REFRESH_INTERVAL}. Returns at once.
   */
  public synchronized void requestRefresh() {
    if (System.nanoTime() - lastAttemptNanos < MIN_REFRESH_INTERVAL.toNanos()) {
      return;
    }
    if (next != null && next.cancel(false)) { // not running now: run it early instead
      next = scheduler.schedule(this::attempt, 0, TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }

  private void attempt() {
    lastAttemptNanos = System.nanoTime();
    Duration delay;
    try {
      cached = fetch();
      synchronized (this) {
        backoff = FIRST_RETRY;
      }
      delay = MAX_AGE;
    } catch (IOException e) {
      synchronized (this) {
        delay = backoff;
        backoff =
            backoff.multipliedBy(2).compareTo(MAX_RETRY) > 0 ? MAX_RETRY : backoff.multipliedBy(2);
      }
      log.warn(
          "Cannot fetch WOPI discovery from {}: {}; {}, next attempt in {}",
          url,
          e.getMessage(),
          cached == null ? "proof keys cannot be checked" : "keeping the last good copy",
          delay);
    }
    synchronized (this) {
      if (!scheduler.isShutdown()) {
        next = scheduler.schedule(this::attempt, delay.toMillis(), TimeUnit.MILLISECONDS);
      }
    }
  }

  private WopiDiscovery fetch() throws IOException {
    CompletableFuture<HttpResponse<byte[]>> response =
        http.sendAsync(
            HttpRequest.newBuilder(url).timeout(timeout).GET().build(),
            HttpResponse.BodyHandlers.ofByteArray());
    HttpResponse<byte[]> r;
    try {
      r = response.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      response.cancel(true);
      throw new IOException("no complete answer within " + timeout, e);
    } catch (ExecutionException e) {
      throw new IOException(String.valueOf(e.getCause()), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
    if (r.statusCode() != 200) {
      throw new IOException("HTTP " + r.statusCode());
    }
    return WopiDiscovery.parse(new ByteArrayInputStream(r.body()), allowInsecureLocalhost);
  }
}
