package io.hostloom.benchmarks.faces;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Mono;

/** Counts HTTP requests after the retry policy: each one is one round trip to the service. */
final class CountingPolicy implements HttpPipelinePolicy {
  private final AtomicLong requests = new AtomicLong();

  @Override
  public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
    requests.incrementAndGet();
    return next.process();
  }

  @Override
  public HttpPipelinePosition getPipelinePosition() {
    return HttpPipelinePosition.PER_RETRY;
  }

  long count() {
    return requests.get();
  }
}
