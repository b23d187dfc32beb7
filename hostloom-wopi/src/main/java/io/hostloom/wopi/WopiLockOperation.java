package io.hostloom.wopi;

/** The WOPI requests whose lock handling {@link WopiLockProtocol} decides. */
public enum WopiLockOperation {
  /**
   * {@code X-WOPI-Override: LOCK}. With an {@code X-WOPI-OldLock} header it is {@link
   * #UNLOCK_AND_RELOCK}.
   */
  LOCK,
  /** {@code X-WOPI-Override: GET_LOCK}. */
  GET_LOCK,
  /** {@code X-WOPI-Override: REFRESH_LOCK}. */
  REFRESH_LOCK,
  /** {@code X-WOPI-Override: UNLOCK}. */
  UNLOCK,
  /** {@code X-WOPI-Override: LOCK} with {@code X-WOPI-OldLock}. */
  UNLOCK_AND_RELOCK,
  /** The lock check before PutFile ({@code POST .../contents}, {@code X-WOPI-Override: PUT}). */
  PUT_FILE,
  /** The lock check before RenameFile ({@code X-WOPI-Override: RENAME_FILE}). */
  RENAME_FILE,
  /** The lock check before DeleteFile ({@code X-WOPI-Override: DELETE}). */
  DELETE_FILE,
  /**
   * The lock check before PutRelativeFile overwrites an existing target ({@code X-WOPI-Override:
   * PUT_RELATIVE} with {@code X-WOPI-OverwriteRelativeTarget: true}); the file id is the target's.
   */
  PUT_RELATIVE_FILE
}
