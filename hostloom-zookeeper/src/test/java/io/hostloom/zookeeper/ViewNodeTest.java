package io.hostloom.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.support.LeaseRounding;
import io.hostloom.locking.spi.support.PermitEntries;
import io.hostloom.locking.spi.support.ReadWriteEntries;
import io.hostloom.locking.spi.support.ViewEntry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A view znode carries the shared rules' state exactly: entries, roles, tokens and expiries (whole
 * server milliseconds) come back as they went in, through the bytes too, and leases are whole
 * milliseconds that cannot overflow the server's now.
 */
class ViewNodeTest {
  private static final long NOW = ViewNode.nanos(1_780_000_000_000L); // a server mtime

  @Test
  void permitEntriesComeBackThroughTheBytes() {
    PermitEntries p =
        new PermitEntries(
            List.of(
                new ViewEntry("a", "3", NOW + ViewNode.leaseNanos(Duration.ofSeconds(30)), 7),
                new ViewEntry("b\u0000é", "3", NOW + ViewNode.leaseNanos(Duration.ofMillis(1)), 8)),
            8,
            3);
    ViewNode decoded = ViewNode.decode(ViewNode.of(p).encode());
    assertThat(decoded.permitEntries()).isEqualTo(p);
    assertThat(decoded.readWriteEntries().readers()).as("no readers in a permit node").isEmpty();
  }

  @Test
  void readersAndTheWaitingOrHoldingWriterComeBackThroughTheBytes() {
    ViewEntry reader = new ViewEntry("r", "d", NOW + ViewNode.nanos(500), 4);
    for (ViewEntry writer :
        List.of(
            new ViewEntry("w", "", NOW + ViewNode.nanos(900), 0),
            new ViewEntry("w", "", NOW + ViewNode.nanos(900), 5))) {
      ReadWriteEntries rw = new ReadWriteEntries(List.of(reader), writer, 5);
      assertThat(ViewNode.decode(ViewNode.of(rw).encode()).readWriteEntries()).isEqualTo(rw);
    }
    ReadWriteEntries none = new ReadWriteEntries(List.of(), null, 9);
    assertThat(ViewNode.of(none).readWriteEntries()).isEqualTo(none);
  }

  @Test
  void anEmptiedPermitNodeHasNoCount() {
    ViewNode stored = new ViewNode(4, 3, List.of());
    assertThat(stored.permitEntries()).isEqualTo(new PermitEntries(List.of(), 4, 0));
  }

  @Test
  void leasesAreWholeMillisecondsRoundedUpAndSaturateBeforeOverflow() {
    assertThat(ViewNode.leaseNanos(Duration.ofNanos(1))).isEqualTo(1_000_000);
    assertThat(ViewNode.leaseNanos(Duration.ofNanos(1_000_001))).isEqualTo(2_000_000);
    long forever = ViewNode.leaseNanos(Duration.ofDays(365L * 10_000));
    assertThat(forever).isLessThanOrEqualTo(LeaseRounding.FOREVER);
    assertThat(NOW + forever).as("no overflow").isPositive();
  }
}
