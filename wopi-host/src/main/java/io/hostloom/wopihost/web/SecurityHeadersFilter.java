package io.hostloom.wopihost.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Security headers on every response: a strict Content-Security-Policy (scripts, styles and data
 * from this host only; no framing; forms post here only), {@code X-Content-Type-Options: nosniff},
 * {@code X-Frame-Options: DENY} and {@code Referrer-Policy: no-referrer} (URLs carry access
 * tokens). The {@code /open/{id}} page replaces the policy with one for its WOPI client.
 */
public final class SecurityHeadersFilter extends OncePerRequestFilter implements Ordered {
  static final String CSP = "Content-Security-Policy";
  static final String DEFAULT_POLICY =
      "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self';"
          + " frame-ancestors 'none'";

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE + 1;
  }

  @Override
  protected void doFilterInternal(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    response.setHeader(CSP, DEFAULT_POLICY);
    response.setHeader("X-Content-Type-Options", "nosniff");
    response.setHeader("X-Frame-Options", "DENY");
    response.setHeader("Referrer-Policy", "no-referrer");
    chain.doFilter(request, response);
  }
}
