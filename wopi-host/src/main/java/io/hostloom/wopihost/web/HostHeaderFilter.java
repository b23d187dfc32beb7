package io.hostloom.wopihost.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * With {@code wopi-host.public-url} set, refuses (421 Misdirected Request) every request whose
 * {@code Host} header is neither the public URL's host and port nor a loopback name: a page from
 * another site that reaches the host through DNS rebinding sends its own name as {@code Host}.
 * Health probes ({@code /actuator/health/**}) are exempt, since orchestrators call them by the
 * instance's address. Without a public URL nothing is checked here (the demo door checks {@code
 * Host} itself, see {@link DemoTokenGate}).
 */
public final class HostHeaderFilter extends OncePerRequestFilter implements Ordered {
  private final Optional<String> allowed;
  private final int defaultPort;

  public HostHeaderFilter(Optional<URI> publicUrl) {
    this.allowed = publicUrl.map(HostHeaderFilter::authority);
    this.defaultPort = publicUrl.map(u -> defaultPort(u.getScheme())).orElse(80);
  }

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE; // before anything reads the request
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    if (allowed.isEmpty() || request.getRequestURI().startsWith("/actuator/health")) {
      chain.doFilter(request, response);
      return;
    }
    String host = request.getHeader("Host");
    if (host != null
        && (normalise(host, defaultPort).equals(allowed.get())
            || DemoTokenGate.isLoopbackHost(host))) {
      chain.doFilter(request, response);
      return;
    }
    response.setStatus(421);
    response.setContentType("text/plain;charset=UTF-8");
    response.getWriter().write("This host answers only to its public URL.\n");
  }

  /** {@code host:port} of a URL, lower-cased, with the scheme's default port made explicit. */
  static String authority(URI url) {
    int port = url.getPort() < 0 ? defaultPort(url.getScheme()) : url.getPort();
    return url.getHost().toLowerCase(Locale.ROOT) + ":" + port;
  }

  private static String normalise(String hostHeader, int defaultPort) {
    String h = hostHeader.strip().toLowerCase(Locale.ROOT);
    int colon = h.lastIndexOf(':');
    boolean hasPort = colon > h.lastIndexOf(']');
    if (hasPort) {
      return h;
    }
    return h + ":" + defaultPort; // no port: the public URL's scheme's default
  }

  private static int defaultPort(String scheme) {
    return "https".equalsIgnoreCase(scheme) ? 443 : 80;
  }
}
