package io.hostloom.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.capability.RoundTripBudget;
import io.hostloom.testkit.capability.RoundTripBudget.Case;
import io.hostloom.testkit.capability.RoundTripBudgetSuite;
import io.hostloom.testkit.capability.RoundTripCounter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
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
}
