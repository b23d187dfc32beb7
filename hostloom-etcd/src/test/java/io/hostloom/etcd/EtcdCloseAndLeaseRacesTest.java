package io.hostloom.etcd;

import static io.hostloom.etcd.JetcdProxies.call;
import static io.hostloom.etcd.JetcdProxies.proxy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.Lease;
import io.etcd.jetcd.Txn;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.kv.TxnResponse;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Races of close and of lease bookkeeping, on a real etcd. The interleavings are forced by thin
 * proxies around a real jetcd client (a step runs exactly inside the window), so every request
 * still goes to the server.
 */
class EtcdCloseAndLeaseRacesTest {
  private static final Duration LONG = Duration.ofMinutes(1);
  private static final Duration WAIT = Duration.ofSeconds(20);

  private final Client real =
      Client.builder().endpoints(EtcdServerProcess.shared().endpoint()).build();

  @AfterEach
  void closeClient() {
    real.close();
  }

  private static <T> T get(CompletableFuture<T> f) {
    return TestTiming.get(f, WAIT);
  }

  /** A client whose KV, lease and watch clients the given functions may replace. */
  private Client client(KV kv, Lease lease, Watch watch) {
    return proxy(
        Client.class,
        (p, m, args) ->
            switch (m.getName()) {
              case "getKVClient" -> kv != null ? kv : real.getKVClient();
              case "getLeaseClient" -> lease != null ? lease : real.getLeaseClient();
              case "getWatchClient" -> watch != null ? watch : real.getWatchClient();
              default -> call(real, m, args);
            });
  }

  /**
   * A KV whose transactions are applied twice, answering the second time, as a client that re-sends
   * a request whose answer was lost does (jetcd with retries on).
   */
  private KV appliedTwice() {
    KV kv = real.getKVClient();
    return proxy(
        KV.class,
        (p, m, args) -> {
          if (!m.getName().equals("txn")) {
            return call(kv, m, args);
          }
          Txn first = kv.txn();
          Txn second = kv.txn();
          return proxy(
              Txn.class,
              (tp, tm, targs) -> {
                if (tm.getName().equals("commit")) {
                  CompletableFuture<TxnResponse> once = first.commit();
                  return once.thenCompose(r -> second.commit());
                }
                call(first, tm, targs);
                call(second, tm, targs);
                return tp;
              });
        });
  }

  @Test
  void aTransactionAppliedTwiceDoesNotRevokeTheLeaseItIsOn() {
    try (EtcdLockBackend twice =
            EtcdLockBackend.builder()
                .client(client(appliedTwice(), null, null))
                .releaseSignal(false)
                .build();
        EtcdLockBackend plain =
            EtcdLockBackend.builder().client(real).releaseSignal(false).build()) {
      String acquired = "twice-acquire-" + UUID.randomUUID();
      String extended = "twice-extend-" + UUID.randomUUID();
      assertThat(get(twice.acquire(acquired, "a", "", LONG)).granted()).isTrue();
      assertThat(get(plain.acquire(extended, "a", "", LONG)).granted()).isTrue();
      assertThat(get(twice.extend(extended, "a", LONG)).extended()).isTrue();
      // a revoke is sent before the answer; give it the time it takes to commit, then look
      TestTiming.pass(Duration.ofMillis(500));
      assertThat(get(plain.read(acquired))).as("acquired key").isPresent();
      assertThat(get(plain.read(extended))).as("extended key").isPresent();
      assertThat(get(plain.acquire(acquired, "b", "", LONG)).granted())
          .as("another owner while the lease lives")
          .isFalse();
    }
  }

  @Test
  void aCallRacingCloseAnswersInItsFutureAndNeverThrows() {
    AtomicReference<EtcdLockBackend> backend = new AtomicReference<>();
    Lease lease = real.getLeaseClient();
    Lease closingOnGrant =
        proxy(
            Lease.class,
            (p, m, args) -> {
              if (m.getName().equals("grant")) {
                backend.get().close(); // close lands after run()'s check, before its timer
              }
              return call(lease, m, args);
            });
    backend.set(
        EtcdLockBackend.builder()
            .client(client(null, closingOnGrant, null))
            .releaseSignal(false)
            .build());
    List<CompletableFuture<?>> calls = new ArrayList<>();
    assertThatCode(
            () -> calls.add(backend.get().acquire("closing-" + UUID.randomUUID(), "a", "", LONG)))
        .doesNotThrowAnyException();
    CompletableFuture<?> answer = calls.get(0);
    assertThatThrownBy(() -> TestTiming.get(answer, WAIT))
        .as("answered UNAVAILABLE in the future")
        .hasCauseInstanceOf(LockBackendException.class);
  }

  @Test
  void aWatchOpenedWhileTheBackendClosesIsClosed() {
    List<AtomicBoolean> closedWatchers = new ArrayList<>();
    AtomicReference<Runnable> duringWatch = new AtomicReference<>(() -> {});
    Watch recording =
        JetcdProxies.recording(
            real.getWatchClient(), closedWatchers, () -> duringWatch.get().run());
    ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
    try {
      ReleaseWatch releases =
          new ReleaseWatch(
              recording, EtcdKeyLayout.withPrefix("race/" + UUID.randomUUID() + "/"), timer);
      // the re-watch after a failure, with the close landing between its check and the watch
      duringWatch.set(releases::close);
      releases.open();
      assertThat(closedWatchers).hasSize(2);
      assertThat(closedWatchers).as("every watch opened is closed").allMatch(AtomicBoolean::get);
    } finally {
      timer.shutdownNow();
    }
  }
}
