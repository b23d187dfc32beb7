package io.hostloom.azure;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import io.hostloom.testkit.capability.RoundTripCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import reactor.core.publisher.Mono;

/**
 * Counts the HTTP requests a backend sends (after the retry policy, so each is one round trip) and
 * names each by the Blob REST operation, e.g. {@code PutBlob}, {@code LeaseBlob:acquire}.
 */
final class RequestCounter implements HttpPipelinePolicy, RoundTripCounter {
  private final List<String> requests = new ArrayList<>();

  @Override
  public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
    String name = nameOf(context);
    synchronized (requests) {
      requests.add(name);
    }
    return next.process();
  }

  @Override
  public HttpPipelinePosition getPipelinePosition() {
    return HttpPipelinePosition.PER_RETRY;
  }

  /** The requests since the last {@link #reset()}, in order. */
  List<String> requests() {
    synchronized (requests) {
      return new ArrayList<>(requests);
    }
  }

  @Override
  public List<String> roundTrips() {
    return requests();
  }

  @Override
  public String name() {
    return "the HTTP pipeline (per retry)";
  }

  @Override
  public void reset() {
    synchronized (requests) {
      requests.clear();
    }
  }

  private static String nameOf(HttpPipelineCallContext context) {
    String method = context.getHttpRequest().getHttpMethod().toString();
    String query = context.getHttpRequest().getUrl().getQuery();
    String comp = param(query, "comp");
    String restype = param(query, "restype");
    if ("container".equals(restype)) {
      return method.equals("PUT") ? "CreateContainer" : method + "Container";
    }
    if ("lease".equals(comp)) {
      String action = context.getHttpRequest().getHeaders().getValue("x-ms-lease-action");
      return "LeaseBlob:" + (action == null ? "?" : action.toLowerCase(Locale.ROOT));
    }
    if ("metadata".equals(comp)) {
      return "SetBlobMetadata";
    }
    switch (method) {
      case "PUT":
        return "PutBlob";
      case "HEAD":
        return "GetBlobProperties";
      case "DELETE":
        return "DeleteBlob";
      default:
        return method + (comp == null ? "" : "?comp=" + comp);
    }
  }

  private static String param(String query, String name) {
    if (query == null) {
      return null;
    }
    for (String p : query.split("&")) {
      int eq = p.indexOf('=');
      if (eq > 0 && p.substring(0, eq).equals(name)) {
        return p.substring(eq + 1);
      }
    }
    return null;
  }
}
