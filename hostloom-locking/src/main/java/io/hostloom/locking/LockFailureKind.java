package io.hostloom.locking;

/**
 * Why a backend call failed. The kernel's orphan-release rules depend on the distinction, so a
 * backend must pick the kind that is true of the command it sent.
 */
public enum LockFailureKind {
  /**
   * The command cannot have reached the backend (connection refused, not connected, pool exhausted
   * before sending). Nothing can be held because of it, so the kernel releases nothing.
   */
  UNAVAILABLE,
  /**
   * No answer within the call's time bound. The command may have been applied, so the kernel treats
   * the key as possibly held and sends one owner-checked release.
   */
  TIMEOUT,
  /** Anything else (server error, protocol error, bug). Treated as "may have been applied". */
  OTHER
}
