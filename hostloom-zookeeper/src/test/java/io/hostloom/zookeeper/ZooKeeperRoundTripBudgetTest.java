package io.hostloom.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.rwlock.DistributedReadWriteLock;
import io.hostloom.locking.semaphore.DistributedSemaphore;
import io.hostloom.locking.semaphore.DistributedSemaphores;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.capability.RoundTripBudget;
import io.hostloom.testkit.capability.RoundTripBudget.Case;
import io.hostloom.testkit.capability.RoundTripBudgetSuite;
import io.hostloom.testkit.capability.RoundTripCounter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Round trips per operation, counted on the wire by the backend's own hook (each entry names the
 * requests sent together: a read is the clock write and the getData, pipelined).
 */
class ZooKeeperRoundTripBudgetTest extends RoundTripBudgetSuite {
  @Override
  protected RoundTripBudget budget() {
    return RoundTripBudget.everyCase(1)
        .with(Case.ACQUIRE_SAME_OWNER, 2)
        .with(Case.ACQUIRE_EXPIRED, 2)
        .with(Case.EXTEND, 2)
        .with(Case.RELEASE, 2)
        .with(Case.REPLACE, 2)
        .with(Case.AWAIT_RELEASE, 0);
  }

  @Override
  protected CountedBackend newCountedBackend() {
    ZooKeeperLockBackend b = (ZooKeeperLockBackend) newBackend();
    List<String> trips = Collections.synchronizedList(new ArrayList<>());
    b.onRoundTrip(trips::add);
    RoundTripCounter wire =
        new RoundTripCounter() {
          @Override
          public String name() {
            return "round trips sent";
          }

          @Override
          public void reset() {
            trips.clear();
          }

          @Override
          public List<String> roundTrips() {
            synchronized (trips) {
              return List.copyOf(trips);
            }
          }
        };
    return new CountedBackend(b, List.of(wire));
  }

  @Override
  protected LockBackend newBackend() {
    return ZooKeeperLockBackend.builder()
        .connectString(ZooKeeperTestServer.shared().connectString())
        .build();
  }

  @Test
  void acquireOfAReleasedKeyIsTheLostCreateAndOneWrite() {
    String k = key("released");
    get(setup().acquire(k, "a", "", Duration.ofMinutes(1)));
    get(setup().release(k, "a"));
    List<String> trips =
        assertRoundTrips(
            "acquire, released key",
            2,
            () ->
                assertThat(get(counted().acquire(k, "b", "", Duration.ofMinutes(1))).granted())
                    .isTrue());
    assertThat(trips).containsExactly("create+setData(clock)+getData", "setData");
  }

  private static final List<String> CREATE_CYCLE =
      List.of(
          "setData(clock)+getData",
          "create",
          "setData(clock)+getData",
          "multi(setData,create,delete)");
  private static final List<String> CYCLE =
      List.of(
          "setData(clock)+getData",
          "setData",
          "setData(clock)+getData",
          "multi(setData,create,delete)");

  private static LockingOptions options() {
    return LockingOptions.builder().namespace("hl-rt").defaultLease(Duration.ofMinutes(1)).build();
  }

  private static LockOptions waiting() {
    return LockOptions.builder()
        .lease(Duration.ofMinutes(1))
        .maxWait(Duration.ofSeconds(10))
        .build();
  }

  /**
   * An uncontended cycle through {@link DistributedReadWriteLock} runs over the native view: read
   * and grant (2), read and release (2). The first grant of a name creates its znode instead of
   * writing it.
   */
  @Test
  void readAndWriteCyclesThroughTheNativeViewAreFourRoundTripsEach() {
    try (DistributedReadWriteLock rw = DistributedReadWriteLock.create(options(), counted())) {
      String name = "rw-" + UUID.randomUUID();
      List<String> first =
          assertRoundTrips(
              "rwlock read acquire+release, new name",
              4,
              () -> rw.acquireRead(name, waiting()).close());
      assertThat(first).containsExactlyElementsOf(CREATE_CYCLE);
      List<String> read =
          assertRoundTrips(
              "rwlock read acquire+release", 4, () -> rw.acquireRead(name, waiting()).close());
      assertThat(read).containsExactlyElementsOf(CYCLE);
      List<String> write =
          assertRoundTrips(
              "rwlock write acquire+release", 4, () -> rw.acquireWrite(name, waiting()).close());
      assertThat(write).containsExactlyElementsOf(CYCLE);
    }
  }

  /** The same for a permit of a {@link DistributedSemaphore} over the native permit view. */
  @Test
  void aPermitCycleThroughTheNativeViewIsFourRoundTrips() {
    try (DistributedSemaphores semaphores = DistributedSemaphores.create(options(), counted())) {
      DistributedSemaphore sem = semaphores.semaphore("sem-" + UUID.randomUUID(), 4);
      sem.tryAcquire().orElseThrow().close(); // the znode exists from here on
      List<String> cycle =
          assertRoundTrips(
              "semaphore permit acquire+release", 4, () -> sem.tryAcquire().orElseThrow().close());
      assertThat(cycle).containsExactlyElementsOf(CYCLE);
    }
  }
}
