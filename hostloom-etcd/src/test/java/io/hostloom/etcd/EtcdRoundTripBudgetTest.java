package io.hostloom.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcd.jetcd.Client;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall.SimpleForwardingClientCall;
import io.grpc.ForwardingClientCallListener.SimpleForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.PermitLeases;
import io.hostloom.locking.spi.ReadWriteLeases;
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
 *
 * <p>The suite's cases take their leases on another instance (the setup one); the cases below this
 * class adds are the counted instance's own locks, which it reads in one transaction and extends
 * with a keep-alive and a transaction sent together, while its lower bound of the lease's end is
 * ahead.
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

  private static final Duration LONG = Duration.ofSeconds(60);

  private final WireCounter counter = new WireCounter();

  @Test
  void aReadOfALockThisInstanceHoldsIsOneTransaction() {
    LockBackend b = counted();
    String k = key("own-read");
    get(b.acquire(k, "a", "d", LONG));
    List<String> trips =
        assertRoundTrips(
            "read, this instance's live lease",
            1,
            () -> assertThat(get(b.read(k))).hasValueSatisfying(r -> isLive(r, "a", "d")));
    assertThat(trips).containsExactly("Txn");
  }

  @Test
  void anExtendOfALockThisInstanceHoldsSendsKeepAliveAndTransactionTogether() {
    LockBackend b = counted();
    String k = key("own-extend");
    get(b.acquire(k, "a", "d", LONG));
    counter.withholdAnswersUntilSent(2); // one request sent after the other's answer: TIMEOUT
    List<String> trips;
    try {
      trips =
          assertRoundTrips(
              "extend, this instance's lease (sent together)",
              2,
              () -> assertThat(get(b.extend(k, "a", LONG)).extended()).isTrue());
    } finally {
      counter.withholdAnswersUntilSent(0);
    }
    assertThat(trips).containsExactlyInAnyOrder("LeaseKeepAlive", "Txn");
    // still this instance's write: read in one transaction, and the lock is live for the others
    assertThat(
            assertRoundTrips(
                "read, this instance's lease after a keep-alive",
                1,
                () -> assertThat(get(b.read(k))).hasValueSatisfying(r -> isLive(r, "a", "d"))))
        .containsExactly("Txn");
    assertThat(get(setup().read(k))).hasValueSatisfying(r -> isLive(r, "a", "d"));
  }

  @Test
  void anExtendOfAKeyRewrittenElsewhereTakesTheOrdinaryPathAndNeverExtendsAnotherOwner() {
    LockBackend b = counted();
    String k = key("rewritten");
    get(b.acquire(k, "a", "d", LONG));
    get(setup().acquire(k, "a", "d", LONG)); // the same owner on another instance: a new lease
    assertThat(
            assertRoundTrips(
                "extend, this owner's key rewritten by another instance",
                4,
                () -> assertThat(get(b.extend(k, "a", LONG)).extended()).isTrue()))
        .containsExactlyInAnyOrder("LeaseKeepAlive", "Txn", "LeaseGrant", "Txn");
    get(setup().release(k, "a"));
    get(setup().acquire(k, "b", "e", Duration.ofSeconds(30)));
    var refused = get(b.extend(k, "a", LONG));
    assertThat(refused.extended()).isFalse();
    assertThat(refused.holder()).hasValueSatisfying(h -> assertThat(h.owner()).isEqualTo("b"));
    assertThat(get(b.release(k, "a")).released()).isFalse();
    assertThat(get(setup().read(k)))
        .hasValueSatisfying(
            r -> assertThat(r.remaining()).isLessThanOrEqualTo(Duration.ofSeconds(30)));
  }

  @Test
  void pastTheLowerBoundOfItsOwnLeaseAReadAsksForTheTtlAndAnExtendGrantsANewLease() {
    AtomicLong now = new AtomicLong();
    WireCounter wire = new WireCounter();
    Client client =
        Client.builder()
            .endpoints(EtcdServerProcess.shared().endpoint())
            .waitForReady(false)
            .interceptor(wire)
            .build();
    try (client;
        EtcdLockBackend b = EtcdLockBackend.builder().client(client).nanoTime(now::get).build()) {
      String k = key("past-bound");
      get(b.acquire(k, "a", "d", LONG));
      wire.reset();
      assertThat(get(b.read(k))).hasValueSatisfying(r -> isLive(r, "a", "d"));
      assertThat(wire.roundTrips()).containsExactly("Txn");

      now.addAndGet(LONG.toNanos()); // this instance can no longer prove the lease live by itself
      wire.reset();
      assertThat(get(b.read(k))).hasValueSatisfying(r -> isLive(r, "a", "d"));
      assertThat(wire.roundTrips()).containsExactly("Txn", "LeaseTimeToLive");
      wire.reset();
      assertThat(get(b.extend(k, "a", LONG)).extended()).isTrue();
      assertThat(wire.roundTrips()).containsExactly("LeaseGrant", "Txn");
      wire.reset();
      assertThat(get(b.read(k))).hasValueSatisfying(r -> isLive(r, "a", "d"));
      assertThat(wire.roundTrips()).as("the new lease is its own again").containsExactly("Txn");
    }
  }

  @Test
  void aLockThisInstanceHeldAnswersAbsentAfterItsLeaseExpired() {
    LockBackend b = counted();
    String k = key("own-expired");
    get(b.acquire(k, "a", "d", shortLease()));
    TestTiming.pass(expiryWait());
    assertThat(get(b.read(k))).isEmpty();
    assertThat(get(b.extend(k, "a", shortLease())).extended()).isFalse();
    assertThat(get(setup().acquire(k, "b", "e", LONG)).granted()).isTrue();
    assertThat(get(b.read(k))).hasValueSatisfying(r -> assertThat(r.owner()).isEqualTo("b"));
  }

  @Test
  void anUncontendedPermitAcquireAndReleaseIsFourRequests() {
    LockBackend view = ((PermitLeases) counted()).permitView(2).orElseThrow();
    String k = key("permit");
    assertThat(
            assertRoundTrips(
                "permit view: acquire, free permit",
                3,
                () -> assertThat(get(view.acquire(k, "a", "d", LONG)).granted()).isTrue()))
        .containsExactly("Range", "LeaseGrant", "Txn");
    assertThat(
            assertRoundTrips(
                "permit view: release",
                1,
                () -> assertThat(get(view.release(k, "a")).released()).isTrue()))
        .containsExactly("Txn");
  }

  @Test
  void aRefusedPermitAcquireReadsAndAsksForTheTtlsTogetherAndGrantsNoLease() {
    LockBackend view = ((PermitLeases) counted()).permitView(2).orElseThrow();
    LockBackend other = ((PermitLeases) setup()).permitView(2).orElseThrow();
    String k = key("permits-taken");
    get(other.acquire(k, "a", "", LONG));
    get(other.acquire(k, "b", "", Duration.ofSeconds(30)));
    assertThat(
            assertRoundTrips(
                "permit view: acquire, every permit taken",
                3,
                () ->
                    assertThat(get(view.acquire(k, "c", "", LONG)).holder())
                        .hasValueSatisfying(h -> assertThat(h.owner()).isEqualTo("b"))))
        .containsExactly("Range", "LeaseTimeToLive", "LeaseTimeToLive");
  }

  @Test
  void aReadAndAWriteCycleAreFourRequestsEach() {
    ReadWriteLeases.Views views = ((ReadWriteLeases) counted()).readWriteViews(4).orElseThrow();
    String k = key("rw");
    for (LockBackend view : List.of(views.read(), views.write())) {
      assertThat(
              assertRoundTrips(
                  view + ": acquire, free",
                  3,
                  () -> assertThat(get(view.acquire(k, "a", "d", LONG)).granted()).isTrue()))
          .containsExactly("Range", "LeaseGrant", "Txn");
      assertThat(
              assertRoundTrips(
                  view + ": release",
                  1,
                  () -> assertThat(get(view.release(k, "a")).released()).isTrue()))
          .containsExactly("Txn");
    }
  }

  private static void isLive(LeaseRecord r, String owner, String data) {
    assertThat(r.owner()).isEqualTo(owner);
    assertThat(r.data()).isEqualTo(data);
    assertThat(r.remaining()).isPositive().isLessThanOrEqualTo(LONG);
  }

  @Test
  void supersededAndUnusedLeasesAreRevokedInTheBackground() {
    LockBackend b = counted();
    String k = key("revoked");
    String held = key("held");
    get(setup().acquire(held, "h", "", Duration.ofSeconds(60)));
    long before = counter.revokes.get();
    get(b.acquire(k, "a", "", Duration.ofSeconds(60))); // nothing to revoke
    get(b.acquire(k, "a", "", Duration.ofSeconds(60))); // the superseded lease
    get(b.extend(k, "a", Duration.ofSeconds(61))); // another length: the superseded lease
    get(b.extend(k, "a", Duration.ofSeconds(61))); // a keep-alive: nothing to revoke
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

  /**
   * Counts the gRPC calls the client starts, by method name; background revokes apart. On request
   * ({@link #withholdAnswersUntilSent}) it holds back every answer until that many calls were
   * started, to prove requests are sent together: a request sent only after another's answer is
   * then never sent, and the operation times out.
   */
  private static final class WireCounter implements RoundTripCounter, ClientInterceptor {
    private final List<String> calls = new ArrayList<>();
    private final List<Runnable> withheld = new ArrayList<>();
    private int started; // guarded by calls; never reset
    private int withholdUntil; // guarded by calls; 0: answers pass
    final AtomicLong revokes = new AtomicLong();

    @Override
    public <Q, R> ClientCall<Q, R> interceptCall(
        MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
      String name = method.getBareMethodName();
      if ("LeaseRevoke".equals(name)) {
        revokes.incrementAndGet();
        return next.newCall(method, options);
      }
      synchronized (calls) {
        calls.add(name);
      }
      return new SimpleForwardingClientCall<>(next.newCall(method, options)) {
        @Override
        public void start(Listener<R> listener, Metadata headers) {
          super.start(new Withholding<>(listener), headers);
          synchronized (calls) {
            started++;
          }
          releaseIfAllSent();
        }
      };
    }

    /** Holds answers back until {@code calls} calls were started after this (0: lets them pass). */
    void withholdAnswersUntilSent(int count) {
      synchronized (calls) {
        withholdUntil = count == 0 ? 0 : started + count;
      }
      releaseIfAllSent();
    }

    private void releaseIfAllSent() {
      List<Runnable> now;
      synchronized (calls) {
        if (withholdUntil != 0 && started < withholdUntil) {
          return;
        }
        withholdUntil = 0;
        now = List.copyOf(withheld);
        withheld.clear();
      }
      now.forEach(Runnable::run);
    }

    /**
     * Passes a call's answers (messages, close) on in order, or keeps them while answers are
     * withheld; headers and flow control pass (a stream sends its request on them).
     */
    private final class Withholding<R> extends SimpleForwardingClientCallListener<R> {
      private final List<Runnable> mine = new ArrayList<>();
      private boolean draining;

      Withholding(ClientCall.Listener<R> delegate) {
        super(delegate);
      }

      private void pass(Runnable callback) {
        boolean hold;
        synchronized (calls) {
          hold = withholdUntil != 0 || !mine.isEmpty() || draining;
          if (hold) {
            boolean first = mine.isEmpty() && !draining;
            mine.add(callback);
            if (first) {
              withheld.add(this::drain);
            }
          }
        }
        if (!hold) {
          callback.run();
        }
      }

      private void drain() {
        while (true) {
          Runnable next;
          synchronized (calls) {
            if (mine.isEmpty()) {
              draining = false;
              return;
            }
            draining = true;
            next = mine.remove(0);
          }
          next.run();
        }
      }

      @Override
      public void onMessage(R message) {
        pass(() -> super.onMessage(message));
      }

      @Override
      public void onClose(Status status, Metadata trailers) {
        pass(() -> super.onClose(status, trailers));
      }
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
