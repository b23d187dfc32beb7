package io.hostloom.locking.spi.support;

import java.time.Duration;
import java.util.Objects;

/**
 * What {@link VersionedRecordLockBackend} asks a {@link VersionedRecordStore} to write: owner,
 * data, the lease (already rounded up to the store's {@link
 * VersionedRecordStore#leaseResolution()}), and whether the write is a new grant (the store assigns
 * a new fencing token) or keeps the token of the grant it extends.
 *
 * @param owner the owner to store (non-empty)
 * @param data the data to store
 * @param lease how long the claim lives from the store's now when the write is applied
 * @param keptToken the fencing token to keep; {@code 0} for a new grant
 */
public record Claim(String owner, String data, Duration lease, long keptToken) {
  public Claim {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(lease, "lease");
    if (keptToken < 0) {
      throw new IllegalArgumentException("keptToken must not be negative but was " + keptToken);
    }
  }

  /** A new grant: the store assigns a fencing token above every earlier grant's on this key. */
  public static Claim newGrant(String owner, String data, Duration lease) {
    return new Claim(owner, data, lease, 0);
  }

  /** A new expiry for the grant whose token is {@code token}: the store keeps that token. */
  public static Claim keeping(String owner, String data, Duration lease, long token) {
    if (token <= 0) {
      throw new IllegalArgumentException("a kept token must be positive but was " + token);
    }
    return new Claim(owner, data, lease, token);
  }

  /** Whether the store must assign a new fencing token. */
  public boolean isNewGrant() {
    return keptToken == 0;
  }

  @Override
  public String toString() {
    return "Claim[owner=<hidden>, dataLength="
        + data.length()
        + ", lease="
        + lease
        + ", keptToken="
        + keptToken
        + "]";
  }
}
