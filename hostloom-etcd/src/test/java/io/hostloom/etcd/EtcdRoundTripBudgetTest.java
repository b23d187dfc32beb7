package io.hostloom.etcd;

import io.etcd.jetcd.Client;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.MethodDescriptor;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.capability.RoundTripBudget;
import io.hostloom.testkit.capability.RoundTripBudget.Case;
import io.hostloom.testkit.capability.RoundTripBudgetSuite;
import io.hostloom.testkit.capability.RoundTripCounter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The requests each operation sends to etcd on its path, counted on the wire by a gRPC interceptor
 * on the counted instance's jetcd client (every unary call is one request; the watch stream opens
 * once, in the warm-up). The figures are the module README's: the lease grant before each writing
 * transaction, the transaction, and the holder's TTL on a refusal by another owner. The revoke of a
 * superseded or unused lease is sent in the background (jetcd starts it on its own executor, so it
 * may come after the operation's answer): it is counted apart, and {@link
 * #supersededAndUnusedLeasesAreRevokedInTheBackground} awaits it.
 */
class EtcdRoundTripBudgetTest extends RoundTripBudgetSuite {

  @Override
  protected RoundTripBudget budget() {
    return RoundTripBudget.everyCase(1)
        .with(Case.ACQUIRE_FREE, 2) // LeaseGrant, Txn
        .with(Case.ACQUIRE_EXPIRED, 2)
        .with(Case.ACQUIRE_SAME_OWNER, 2)
        .with(Case.ACQUIRE_HELD, 3) // + LeaseTimeToLive of the holder
        .with(Case.EXTEND, 2)
        .with(Case.EXTEND_NOT_OWNER, 3)
        .with(Case.EXTEND_ABSENT, 2)
        .with(Case.RELEASE_NOT_OWNER, 2) // Txn, LeaseTimeToLive
        .with(Case.REPLACE, 2)
        .with(Case.REPLACE_MISMATCH, 3)
        .with(Case.REPLACE_ABSENT, 2)
        .with(Case.READ_LIVE, 2) // Txn, LeaseTimeToLive
        .with(Case.AWAIT_RELEASE, 0);
  }

  private final WireCounter counter = new WireCounter();

  @Test
  void supersededAndUnusedLeasesAreRevokedInTheBackground() {
    LockBackend b = counted();
    String k = key("revoked");
    String held = key("held");
    get(setup().acquire(held, "h", "", Duration.ofSeconds(60)));
    long before = counter.revokes.get();
    get(b.acquire(k, "a", "", Duration.ofSeconds(60))); // nothing to revoke
    get(b.acquire(k, "a", "", Duration.ofSeconds(60))); // the superseded lease
    get(b.extend(k, "a", Duration.ofSeconds(60))); // the superseded lease
    get(b.acquire(held, "b", "", Duration.ofSeconds(60))); // the unused lease
    get(b.release(k, "a")); // the released lease
    TestTiming.await(
        "four background revokes",
        () -> counter.revokes.get() - before == 4,
        Duration.ofSeconds(10));
  }

  @Override
  protected CountedBackend newCountedBackend() {
    Client client =
        Client.builder()
            .endpoints(EtcdServerProcess.shared().endpoint())
            .waitForReady(false)
            .interceptor(counter)
            .build();
    EtcdLockBackend b = EtcdLockBackend.builder().client(client).build();
    return new CountedBackend(
        b,
        List.of(counter),
        () -> {
          b.close();
          client.close();
        });
  }

  @Override
  protected LockBackend newBackend() {
    return EtcdLockBackend.builder().endpoints(EtcdServerProcess.shared().endpoint()).build();
  }

  @Override
  protected Duration shortLease() {
    return Duration.ofSeconds(1);
  }

  // the 1 s TTL, etcd's expiry check (every 500 ms) and the revoke's commit
  @Override
  protected Duration expiryWait() {
    return Duration.ofMillis(2500);
  }

  /** Counts the gRPC calls the client starts, by method name; background revokes apart. */
  private static final class WireCounter implements RoundTripCounter, ClientInterceptor {
    private final List<String> calls = new ArrayList<>();
    final AtomicLong revokes = new AtomicLong();

    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(
        MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
      if ("LeaseRevoke".equals(method.getBareMethodName())) {
        revokes.incrementAndGet();
      } else {
        synchronized (calls) {
          calls.add(method.getBareMethodName());
        }
      }
      return next.newCall(method, options);
    }

    @Override
    public String name() {
      return "gRPC calls of the counted client (background LeaseRevoke apart)";
    }

    @Override
    public void reset() {
      synchronized (calls) {
        calls.clear();
      }
    }

    @Override
    public List<String> roundTrips() {
      synchronized (calls) {
        return List.copyOf(calls);
      }
    }
  }
}
