package io.hostloom.locking.spi.support;

import java.util.Optional;

/**
 * The answer of a conditional write of a {@link VersionedRecordStore}: applied, or lost to a
 * concurrent change (the condition did not hold). A lost write changed nothing, except when made
 * with {@link #lostAfterPartialWrite()}.
 *
 * <p>A store that learns the current record in the same round trip as a lost write (an etcd
 * transaction's else branch, a SQL {@code RETURNING}) passes it to {@link #lost(Optional)}: the
 * generic backend then decides again on it without reading. Otherwise {@link #lost()}: the backend
 * reads again.
 */
public final class WriteResult<V> {
  private static final WriteResult<?> LOST = new WriteResult<>(false, 0, false, null, false);
  private static final WriteResult<?> LOST_PARTIAL = new WriteResult<>(false, 0, false, null, true);
  private static final WriteResult<?> DELETED = new WriteResult<>(true, 0, false, null, true);

  private final boolean applied;
  private final long fencingToken;
  private final boolean currentKnown;
  private final VersionedRecord<V> current; // null: absent (when known)
  private final boolean changed;

  private WriteResult(
      boolean applied,
      long fencingToken,
      boolean currentKnown,
      VersionedRecord<V> current,
      boolean changed) {
    this.applied = applied;
    this.fencingToken = fencingToken;
    this.currentKnown = currentKnown;
    this.current = current;
    this.changed = changed;
  }

  /**
   * A create or compare-and-set that was applied; {@code fencingToken} is the token of the record
   * now stored (the new one for a {@linkplain Claim#isNewGrant() new grant}, the kept one
   * otherwise).
   *
   * @throws IllegalArgumentException when the token is not positive
   */
  public static <V> WriteResult<V> written(long fencingToken) {
    if (fencingToken <= 0) {
      throw new IllegalArgumentException(
          "a fencing token must be positive but was " + fencingToken);
    }
    return new WriteResult<>(true, fencingToken, false, null, true);
  }

  /** A compare-and-delete that was applied (the record is gone, or marked released). */
  @SuppressWarnings("unchecked") // carries no V
  public static <V> WriteResult<V> deleted() {
    return (WriteResult<V>) DELETED;
  }

  /** Lost: the condition did not hold; nothing changed; the current record is not known. */
  @SuppressWarnings("unchecked") // carries no V
  public static <V> WriteResult<V> lost() {
    return (WriteResult<V>) LOST;
  }

  /**
   * Lost, with the key's current record (empty when absent) as the store saw it in the same atomic
   * step; nothing changed.
   */
  public static <V> WriteResult<V> lost(Optional<VersionedRecord<V>> current) {
    return new WriteResult<>(false, 0, true, current.orElse(null), false);
  }

  /**
   * Lost after part of the write was applied (a two-request write whose second request lost): a
   * later failure of the same operation can then no longer be {@code UNAVAILABLE}. Only for a first
   * part that no other operation could have seen as the new record: once others may have judged it
   * (read it, replaced it, deleted it), the operation took effect and the store must answer {@link
   * #written}, or the backend decides again and one operation shows two effects.
   */
  @SuppressWarnings("unchecked") // carries no V
  public static <V> WriteResult<V> lostAfterPartialWrite() {
    return (WriteResult<V>) LOST_PARTIAL;
  }

  /** Whether the write was applied. */
  public boolean applied() {
    return applied;
  }

  /** The stored record's fencing token when {@link #written}, else {@code 0}. */
  public long fencingToken() {
    return fencingToken;
  }

  /** When lost: whether the store told the key's current record ({@link #lost(Optional)}). */
  public boolean currentKnown() {
    return currentKnown;
  }

  /** When {@link #currentKnown()}: the current record, empty when absent. */
  public Optional<VersionedRecord<V>> current() {
    return Optional.ofNullable(current);
  }

  /** Whether the store changed anything (applied, or a partial write). */
  public boolean changedSomething() {
    return changed;
  }

  @Override
  public String toString() {
    return applied
        ? "WriteResult[applied, fencingToken=" + fencingToken + "]"
        : "WriteResult[lost" + (currentKnown ? ", current=" + current() : "") + "]";
  }
}
