package io.hostloom.benchmarks.faces;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.MethodDescriptor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts what a jetcd client sends to etcd. Round trips: the calls started, each one request the
 * caller waits for (a unary call, or one {@code keepAliveOnce} stream), except lease revokes, which
 * the etcd backend sends in the background without waiting. Requests: every request message,
 * revokes included (jetcd's {@code keepAliveOnce} sends its request a second time when it ends the
 * stream, after the answer).
 */
final class CountingInterceptor implements ClientInterceptor {
  private static final String REVOKE = "etcdserverpb.Lease/LeaseRevoke";
  private final AtomicLong calls = new AtomicLong();
  private final AtomicLong requests = new AtomicLong();

  @Override
  public <Q, A> ClientCall<Q, A> interceptCall(
      MethodDescriptor<Q, A> method, CallOptions options, Channel next) {
    return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
      @Override
      public void start(Listener<A> listener, io.grpc.Metadata headers) {
        if (!method.getFullMethodName().equals(REVOKE)) {
          calls.incrementAndGet();
        }
        super.start(listener, headers);
      }

      @Override
      public void sendMessage(Q message) {
        requests.incrementAndGet();
        super.sendMessage(message);
      }
    };
  }

  long roundTrips() {
    return calls.get();
  }

  long requests() {
    return requests.get();
  }
}
