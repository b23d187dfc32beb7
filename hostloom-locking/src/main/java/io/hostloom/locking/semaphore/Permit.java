package io.hostloom.locking.semaphore;

import io.hostloom.locking.LockHandle;
import java.util.Objects;

/**
 * One permit of a grant: the slot it occupies and the kernel lease that holds it.
 *
 * <p><b>Fencing.</b> {@code lease().fencingToken()} strictly increases with every grant of this
 * <em>slot</em> (as the backend's README says for any key). It orders the holders of one slot, not
 * permits of different slots: a resource that fences permits keeps the highest token it has seen
 * per {@code (semaphore name, slot)} and rejects lower ones. On a native semaphore ({@link
 * io.hostloom.locking.spi.PermitLeases}) the slot is the token modulo the permit count and tokens
 * come from one counter per name, so they also increase over all slots; portable code relies only
 * on the per-slot order.
 *
 * @param slot the slot index, {@code 0 <= slot < permits}
 * @param lease the kernel lease of the slot: owner token, fencing token, {@code lost()}, extension
 */
public record Permit(int slot, LockHandle lease) {
  public Permit {
    Objects.requireNonNull(lease, "lease");
    if (slot < 0) {
      throw new IllegalArgumentException("slot must not be negative but was " + slot);
    }
  }

  /** The slot's fencing token of this grant; see the class documentation for its order. */
  public long fencingToken() {
    return lease.fencingToken();
  }
}
