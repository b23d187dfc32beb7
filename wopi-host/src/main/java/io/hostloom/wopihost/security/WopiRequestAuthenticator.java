package io.hostloom.wopihost.security;

import io.hostloom.wopihost.security.ProofKeys.Verdict;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Optional;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks that a WOPI request may touch a file: a valid access token for exactly that file (from the
 * {@code access_token} query parameter, else an {@code Authorization: Bearer} header), and, when a
 * WOPI client's discovery is configured, valid proof keys, each proof accepted once only ({@link
 * ProofReplayCache}).
 *
 * <p>The token is read from the raw query string only, never through {@code getParameter}: that
 * would let the container parse (and so consume, and wait for) a form-encoded request body before
 * the token is checked, and would accept a token sent in a form body. The token never appears in
 * the logs: URLs are logged with {@code access_token} redacted.
 */
public final class WopiRequestAuthenticator {
  private static final Logger log = LoggerFactory.getLogger(WopiRequestAuthenticator.class);

  private static final String ACCESS_TOKEN = "access_token";
  private static final Pattern REDACT =
      Pattern.compile("([?&]" + ACCESS_TOKEN + "=)[^&#]*", Pattern.CASE_INSENSITIVE);

  private final AccessTokens tokens;
  private final Optional<DiscoveryClient> discovery;
  private final Optional<URI> publicUrl;
  private final Clock clock;
  private final ProofReplayCache replays = new ProofReplayCache();

  public WopiRequestAuthenticator(
      AccessTokens tokens,
      Optional<DiscoveryClient> discovery,
      Optional<URI> publicUrl,
      Clock clock) {
    this.tokens = tokens;
    this.discovery = discovery;
    this.publicUrl = publicUrl;
    this.clock = clock;
  }

  /**
   * The token's claims when the request is allowed for {@code fileId}.
   *
   * @param fileId the token's scope ({@link TokenScopes})
   * @throws WopiAuthException 401 for a missing, invalid, expired or wrong-file token; 404 for a
   *     genuine token whose file was deleted (or whose tokens were revoked) since; 500 for a failed
   *     proof-key check (as WOPI asks, so the client refreshes its keys and retries)
   */
  public AccessTokens.Claims authenticate(HttpServletRequest request, String fileId) {
    String token = token(request);
    Optional<AccessTokens.Claims> claims = tokens.verify(token, fileId);
    boolean revoked = claims.isEmpty() && tokens.isRevoked(token, fileId);
    if (claims.isEmpty() && !revoked) {
      throw WopiAuthException.unauthorized("invalid or expired access token");
    }
    if (discovery.isPresent()) {
      checkProof(request, token, discovery.get());
    }
    return claims.orElseThrow(
        () -> WopiAuthException.gone("the token's file was deleted or its tokens revoked"));
  }

  private void checkProof(HttpServletRequest request, String token, DiscoveryClient client) {
    Optional<WopiDiscovery> keys = client.get();
    if (keys.isEmpty()) {
      throw WopiAuthException.proofFailed("WOPI discovery unavailable: cannot verify proof keys");
    }
    String url = requestUrl(request);
    Verdict verdict = verify(request, token, url, keys.get());
    if (verdict == Verdict.INVALID_SIGNATURE) {
      client.requestRefresh(); // the keys may have rotated twice: the client's retry uses new ones
    }
    if (verdict != Verdict.VALID) {
      log.warn(
          "Rejected WOPI request {} {}: proof keys {}", request.getMethod(), redact(url), verdict);
      throw WopiAuthException.proofFailed("proof key check failed: " + verdict);
    }
    // VALID implies a timestamp that parses
    long ticks = Long.parseLong(request.getHeader("X-WOPI-TimeStamp").strip());
    if (!replays.firstUse(token, url, ticks, clock.instant())) {
      log.warn("Rejected WOPI request {} {}: proof replayed", request.getMethod(), redact(url));
      throw WopiAuthException.proofFailed("proof key check failed: the proof was used before");
    }
  }

  private Verdict verify(HttpServletRequest request, String token, String url, WopiDiscovery keys) {
    return ProofKeys.verify(
        token,
        url,
        request.getHeader("X-WOPI-TimeStamp"),
        request.getHeader("X-WOPI-Proof"),
        request.getHeader("X-WOPI-ProofOld"),
        keys,
        clock.instant());
  }

  /** The URL as the client called it: the public base URL (or the request's) + raw path + query. */
  String requestUrl(HttpServletRequest request) {
    String base =
        publicUrl
            .map(u -> stripTrailingSlash(u.toString()))
            .orElseGet(
                () -> {
                  String full = request.getRequestURL().toString();
                  return full.substring(0, full.length() - request.getRequestURI().length());
                });
    String query = request.getQueryString();
    return base + request.getRequestURI() + (query == null ? "" : "?" + query);
  }

  private static String token(HttpServletRequest request) {
    String query = queryToken(request.getQueryString());
    if (query != null && !query.isEmpty()) {
      return query;
    }
    String auth = request.getHeader("Authorization");
    if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return auth.substring(7).strip();
    }
    return null;
  }

  /** The one {@code access_token} of a raw query string; null when absent, twice or undecodable. */
  public static String queryToken(String query) {
    if (query == null) {
      return null;
    }
    String found = null;
    for (String pair : query.split("&", -1)) {
      int eq = pair.indexOf('=');
      String name = eq < 0 ? pair : pair.substring(0, eq);
      if (!ACCESS_TOKEN.equals(name)) {
        continue;
      }
      if (found != null) {
        return null; // two tokens: ambiguous, so none
      }
      try {
        found = URLDecoder.decode(eq < 0 ? "" : pair.substring(eq + 1), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
    return found;
  }

  /** {@code url} with the value of every {@code access_token} parameter replaced, for logs. */
  public static String redact(String url) {
    return REDACT.matcher(url).replaceAll("$1REDACTED");
  }

  private static String stripTrailingSlash(String s) {
    return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
  }
}
