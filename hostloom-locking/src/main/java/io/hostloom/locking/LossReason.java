package io.hostloom.locking;

import java.util.Locale;

/** Why a {@link LockHandle} stopped holding its lease before it was closed. */
public enum LossReason {
  /**
   * The lease ran out on the local clock (request time + lease), without a successful extension.
   */
  EXPIRED,
  /** The backend answered an extension with "not the owner" (expired there, or taken over). */
  EXTEND_REFUSED,
  /** An extension was granted, but its reply arrived after the lease it requested was spent. */
  EXTEND_TOO_LATE,
  /** The backend answered the release of a still-held handle with "not the owner". */
  RELEASE_REFUSED;

  /** Lower-case name, as used in the {@code reason} metric tag. */
  public String tagValue() {
    return name().toLowerCase(Locale.ROOT);
  }
}
