package io.hostloom.wopihost.web;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.http.HttpServletRequest;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The demo door: whether a request may get tokens from {@code /api/token} and {@code /open/{id}}
 * and see lock ids on {@code /api/files}. Closed unless {@code wopi-host.demo-tokens=true}; when
 * open, only for a direct request from a browser or tool on the host machine:
 *
 * <ul>
 *   <li>the connection's peer is a loopback address, read from the container's own request, under
 *       any wrapper a forwarded-headers filter puts around it ({@code
 *       server.forward-headers-strategy=framework} would otherwise report the first {@code
 *       X-Forwarded-For} entry);
 *   <li>Tomcat did not treat the peer as a proxy ({@code server.forward-headers-strategy=native}
 *       marks such requests; it treats every loopback and private-network peer as one, so with that
 *       strategy the door stays closed);
 *   <li>no forwarding header at all ({@code Forwarded}, {@code X-Forwarded-*}, {@code X-Real-IP},
 *       ...): a proxy on the same machine also connects from loopback, and most add one;
 *   <li>the {@code Host} header is a loopback name ({@code localhost}, {@code 127.x.y.z}, {@code
 *       [::1]}), so a page from another site reaching the port through DNS rebinding is refused.
 * </ul>
 *
 * A proxy that adds no forwarding header and rewrites {@code Host} to a loopback name cannot be
 * told apart from a local client: keep the door closed behind any proxy.
 */
public final class DemoTokenGate {
  /** Set by Tomcat's RemoteIpValve on requests it received from a proxy. */
  static final String TOMCAT_FORWARDED = "org.apache.tomcat.request.forwarded";

  static final List<String> FORWARDING_HEADERS =
      List.of(
          "Forwarded",
          "X-Forwarded-For",
          "X-Forwarded-Host",
          "X-Forwarded-Proto",
          "X-Forwarded-Port",
          "X-Forwarded-Prefix",
          "X-Forwarded-Ssl",
          "X-Forwarded-By",
          "X-Real-IP",
          "X-Client-IP",
          "True-Client-IP",
          "CF-Connecting-IP");

  private final boolean enabled;

  public DemoTokenGate(boolean enabled) {
    this.enabled = enabled;
  }

  /**
   * The gate for {@code wopi-host.demo-tokens} and {@code wopi-host.public-url}: a host with a
   * public URL sits behind a proxy, and a proxy that adds no forwarding header and sends a loopback
   * {@code Host} (nginx's defaults: {@code proxy_pass http://127.0.0.1:8080}) cannot be told apart
   * from a local browser, so the two are refused together.
   *
   * @throws IllegalStateException when the door is asked for while a public URL is set
   */
  public static DemoTokenGate of(boolean demoTokens, Optional<URI> publicUrl) {
    if (demoTokens && publicUrl.isPresent()) {
      throw new IllegalStateException(
          "wopi-host.demo-tokens=true cannot be combined with wopi-host.public-url: behind a"
              + " proxy the demo door could be opened from anywhere; issue tokens from your own"
              + " authenticated front end instead");
    }
    return new DemoTokenGate(demoTokens);
  }

  /** Whether {@code wopi-host.demo-tokens} is on. */
  public boolean enabled() {
    return enabled;
  }

  /** Whether {@code request} may pass the demo door (see the class comment). */
  public boolean allows(HttpServletRequest request) {
    if (!enabled) {
      return false;
    }
    ServletRequest raw = request;
    while (raw instanceof ServletRequestWrapper w) {
      raw = w.getRequest();
    }
    if (!(raw instanceof HttpServletRequest http) || raw.getAttribute(TOMCAT_FORWARDED) != null) {
      return false;
    }
    for (String name : FORWARDING_HEADERS) {
      if (http.getHeader(name) != null) {
        return false;
      }
    }
    return isLoopbackAddress(http.getRemoteAddr()) && isLoopbackHost(http.getHeader("Host"));
  }

  private static boolean isLoopbackAddress(String ip) {
    if (ip == null || !ip.matches("[0-9.]+|[0-9a-fA-F:.%\\[\\]]+")) {
      return false; // an IP literal only: never a DNS look-up
    }
    try {
      return InetAddress.getByName(ip).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /** Whether a {@code Host} header names this machine's loopback interface, any port. */
  static boolean isLoopbackHost(String hostHeader) {
    if (hostHeader == null) {
      return false;
    }
    String h = hostHeader.strip().toLowerCase(Locale.ROOT);
    String host;
    if (h.startsWith("[")) {
      int end = h.indexOf(']');
      if (end < 0) {
        return false;
      }
      host = h.substring(1, end);
    } else {
      int colon = h.indexOf(':');
      host = colon < 0 ? h : h.substring(0, colon);
    }
    return host.equals("localhost")
        || host.equals("::1")
        || host.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
  }
}
