package io.hostloom.wopihost.security;

import io.hostloom.wopihost.security.ProofKeys.Verdict;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks that a WOPI request may touch a file: a valid access token for exactly that file (from the
 * {@code access_token} query parameter, else an {@code Authorization: Bearer} header), and, when a
 * WOPI client's discovery is configured, valid proof keys.
 */
public final class WopiRequestAuthenticator {
  private static final Logger log = LoggerFactory.getLogger(WopiRequestAuthenticator.class);

  private final AccessTokens tokens;
  private final Optional<DiscoveryClient> discovery;
  private final Optional<URI> publicUrl;
  private final Clock clock;

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
   * @throws WopiAuthException 401 for a missing, invalid, expired or wrong-file token; 500 for a
   *     failed proof-key check (as WOPI asks, so the client refreshes its keys and retries)
   */
  public AccessTokens.Claims authenticate(HttpServletRequest request, String fileId) {
    String token = token(request);
    AccessTokens.Claims claims =
        tokens
            .verify(token, fileId)
            .orElseThrow(() -> WopiAuthException.unauthorized("invalid or expired access token"));
    if (discovery.isPresent()) {
      checkProof(request, token, discovery.get());
    }
    return claims;
  }

  private void checkProof(HttpServletRequest request, String token, DiscoveryClient client) {
    Optional<WopiDiscovery> keys = client.get();
    if (keys.isEmpty()) {
      throw WopiAuthException.proofFailed("WOPI discovery unavailable: cannot verify proof keys");
    }
    String url = requestUrl(request);
    Verdict verdict = verify(request, token, url, keys.get());
    if (verdict == Verdict.INVALID_SIGNATURE && client.refresh()) {
      verdict = verify(request, token, url, client.get().orElseThrow());
    }
    if (verdict != Verdict.VALID) {
      log.warn("Rejected WOPI request {} {}: proof keys {}", request.getMethod(), url, verdict);
      throw WopiAuthException.proofFailed("proof key check failed: " + verdict);
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
    String query = request.getParameter("access_token");
    if (query != null && !query.isEmpty()) {
      return query;
    }
    String auth = request.getHeader("Authorization");
    if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return auth.substring(7).strip();
    }
    return null;
  }

  private static String stripTrailingSlash(String s) {
    return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
  }
}
