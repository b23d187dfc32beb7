package io.hostloom.wopihost.web;

import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Builds the host's absolute URLs (WOPISrc values, links) from the configured public URL, or from
 * the request when none is configured.
 */
public final class HostUrls {
  private final Optional<URI> publicUrl;

  public HostUrls(Optional<URI> publicUrl) {
    this.publicUrl = publicUrl;
  }

  /** {@code scheme://host:port} without a trailing slash. */
  public String base(HttpServletRequest request) {
    return publicUrl
        .map(u -> stripSlash(u.toString()))
        .orElseGet(
            () -> {
              String full = request.getRequestURL().toString();
              return full.substring(0, full.length() - request.getRequestURI().length());
            });
  }

  /** The WOPISrc of {@code fileId}: {@code base/wopi/files/<encoded id>}. */
  public static String wopiSrc(String base, String fileId) {
    return base + "/wopi/files/" + encodeSegment(fileId);
  }

  /** Percent-encodes one path segment (spaces as {@code %20}, never {@code +}). */
  public static String encodeSegment(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** Percent-encodes a query parameter value. */
  public static String encodeQuery(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  private static String stripSlash(String s) {
    return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
  }
}
