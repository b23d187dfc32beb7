package io.hostloom.wopihost.web;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;

/**
 * The rule for request headers the host acts on: each may appear at most once. Two {@code
 * X-WOPI-Lock} lines (or two {@code X-WOPI-Override}s, ...) make the request ambiguous, and servlet
 * containers answer {@code getHeader} with the first one while proxies may pick another; so such a
 * request is refused as a whole instead of silently deciding on one value. A single header whose
 * value contains commas is one value (lock ids may contain commas).
 */
final class SingleValuedHeaders {
  /** Every header whose value decides what the host does. */
  static final List<String> NAMES =
      List.of(
          "X-WOPI-Override",
          "X-WOPI-Lock",
          "X-WOPI-OldLock",
          "X-WOPI-RequestedName",
          "X-WOPI-SuggestedTarget",
          "X-WOPI-RelativeTarget",
          "X-WOPI-OverwriteRelativeTarget",
          "X-WOPI-MaxExpectedSize",
          "X-WOPI-Proof",
          "X-WOPI-ProofOld",
          "X-WOPI-TimeStamp",
          "Authorization");

  private SingleValuedHeaders() {}

  /** The first of {@link #NAMES} that {@code request} carries more than once, if any. */
  static Optional<String> firstRepeated(HttpServletRequest request) {
    for (String name : NAMES) {
      Enumeration<String> values = request.getHeaders(name);
      if (values != null && values.hasMoreElements()) {
        values.nextElement();
        if (values.hasMoreElements()) {
          return Optional.of(name);
        }
      }
    }
    return Optional.empty();
  }
}
