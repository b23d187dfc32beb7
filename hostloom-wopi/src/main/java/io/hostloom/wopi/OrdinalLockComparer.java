package io.hostloom.wopi;

import java.util.Objects;

/** {@link WopiLockComparer#ordinal()}. */
enum OrdinalLockComparer implements WopiLockComparer {
  INSTANCE;

  static final String TAG = "o:";

  @Override
  public String identity(String lockId) {
    return TAG + Objects.requireNonNull(lockId, "lockId");
  }

  @Override
  public String toString() {
    return "WopiLockComparer.ordinal()";
  }
}
