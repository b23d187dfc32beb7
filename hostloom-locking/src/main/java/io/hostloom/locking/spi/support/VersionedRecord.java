package io.hostloom.locking.spi.support;

import io.hostloom.locking.spi.LeaseRecord;
import java.time.Duration;
import java.util.Objects;

/**
 * One key's record as a {@link VersionedRecordStore} read it: the claim, the store's opaque version
 * of it, and how much of its lease was left by the <em>store's</em> clock.
 *
 * @param version what a conditional write of this record is conditioned on (etcd mod revision,
 *     ZooKeeper {@code Stat} version, an ETag); opaque to the generic backend, compared by the
 *     store
 * @param owner the owner of the claim; may be empty for a record the store keeps without a live
 *     claim (a released marker), which must then report no time left
 * @param data the data of the claim ({@code ""} for none)
 * @param fencingToken the fencing token of the grant the record belongs to
 * @param remaining the lease left at the store's now when it answered; zero or negative when
 *     expired (a store that removes expired records itself, as etcd leases do, never returns those)
 */
public record VersionedRecord<V>(
    V version, String owner, String data, long fencingToken, Duration remaining) {
  public VersionedRecord {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(remaining, "remaining");
  }

  /** Whether the lease is live at the store's now. */
  public boolean live() {
    return !owner.isEmpty() && !remaining.isNegative() && !remaining.isZero();
  }

  /** The SPI's view of a live record. */
  public LeaseRecord toLeaseRecord() {
    return new LeaseRecord(owner, data, remaining, fencingToken);
  }

  /** A record whose owner and data are hidden, for logs. */
  @Override
  public String toString() {
    return "VersionedRecord[version="
        + version
        + ", owner=<hidden>, dataLength="
        + data.length()
        + ", fencingToken="
        + fencingToken
        + ", remaining="
        + remaining
        + "]";
  }
}
