package io.hostloom.locking.spi;

import java.util.Objects;
import java.util.Optional;

/**
 * Optional capability of a {@link LockBackend}: reader-writer locks kept natively, as the entries
 * of one record per lock name, so that a read or write grant is one atomic operation instead of the
 * generic construction's several (a write key, reader slots and a token key). {@code
 * DistributedReadWriteLock} uses it when the backend object passed to it implements this interface
 * and {@link #readWriteViews} answers views; otherwise (and for backends without it) the lock is
 * built from plain keys. A decorator that wraps such a backend offers the capability only if it
 * implements this interface itself (recording or checking the views' calls as it does the
 * backend's).
 *
 * <p><b>The views</b> are two {@link LockBackend}s over the same keys, through which the kernel's
 * lease engine holds reads and writes exactly as it holds locks (owner tokens, fencing tokens,
 * extension, release, orphan release). A view key names a whole reader-writer lock; each live
 * <em>entry</em> of the key is one reader, or the one writer, with its owner, data, expiry and
 * fencing token. The writer entry is either <em>holding</em> or <em>waiting</em> (recorded by a
 * refused write acquire while readers are live). Each operation is atomic on the backend:
 *
 * <ul>
 *   <li><b>read view</b> {@link LockBackend#acquire acquire(key, owner, data, lease)}: when {@code
 *       owner} has a live reader entry, its expiry becomes now + lease and it keeps its token and
 *       data (granted with that token: a retried acquire is idempotent). Otherwise, when no live
 *       writer entry exists (neither holding nor waiting: writer preference) and fewer than {@code
 *       maxReaders} reader entries are live, adds {@code owner}'s reader entry and answers granted
 *       with a new token. Otherwise refused ("held") with the writer entry's record (a waiting
 *       writer's token is 0), or, with every reader place taken, the record of the reader entry
 *       that expires first.
 *   <li><b>write view</b> {@code acquire}: when {@code owner}'s writer entry is live and holding,
 *       its expiry becomes now + lease, token and data kept (granted). When another owner's writer
 *       entry is live (holding or waiting), refused with its record. Otherwise, when no reader
 *       entry is live, {@code owner}'s writer entry becomes holding with a new token (granted);
 *       when readers are live, {@code owner}'s writer entry becomes (or stays) <em>waiting</em>
 *       with expiry now + lease, and the answer is refused with the record of the reader entry that
 *       expires first. So once a writer was refused for readers, no new reader is granted until
 *       that writer was granted, released its entry, or its entry expired; a later attempt of the
 *       same owner is granted once the readers are gone.
 *   <li>{@link LockBackend#extend extend}: {@code owner}'s live reader entry (read view) or holding
 *       writer entry (write view) gets expiry now + lease; otherwise refused as absent (never with
 *       another owner's record; a waiting entry is never extended).
 *   <li>{@link LockBackend#release release}: removes {@code owner}'s live reader entry (read view)
 *       or writer entry, holding <em>or waiting</em> (write view); otherwise refused as absent. A
 *       writer that gives up releases through the write view to remove its waiting entry; one that
 *       crashed leaves it to expire.
 *   <li>{@link LockBackend#read read}: the read view answers the live reader entry that expires
 *       first, the write view the live writer entry (holding or waiting), or empty.
 *   <li>{@link LockBackend#replace replace}: not part of the views (the lease engine never calls
 *       it); it fails with a {@link LockBackendException} of kind {@code OTHER}.
 * </ul>
 *
 * <p><b>Tokens.</b> One counter per key serves both views: every grant that adds an entry (read or
 * write) takes the next value, so tokens strictly increase per key over all grants for as long as
 * the backend keeps the key's data: every write grant's token is larger than every earlier read and
 * write grant's, and every read grant's token is larger than every earlier write grant's. A view
 * keeps its counter whatever the backend's own fencing settings.
 *
 * <p>The rules of {@link LockBackend} hold entry by entry: the backend's clock decides expiry (an
 * entry whose expiry is at or before the backend's now is not live, never counts and never blocks a
 * grant), nothing destructive is unconditional, calls are bounded, failures are typed.
 *
 * <p><b>Release signal.</b> When the backend is also a {@link ReleaseSignal}, a release of any
 * entry of a view key (a reader, a holding or a waiting writer) is announced as a release of that
 * key: {@code awaitRelease(key, ..)} with the view key wakes on it, under the same hint rules.
 *
 * <p><b>Keys.</b> The records the views write for a key never meet the records of the backend's own
 * operations or of its other capabilities for any key; each backend's README gives its layout. The
 * generic construction of another process does not see the views' entries (nor the other way
 * round): all processes of one lock must use the same construction, which they do when they use the
 * same backend type.
 */
public interface ReadWriteLeases {

  /**
   * The views for reader-writer locks of at most {@code maxReaders} readers per name, or empty when
   * this backend instance cannot offer them (for example a compatibility key layout); then the
   * generic construction is used. Whether views are offered depends on the backend instance only,
   * never on {@code maxReaders}. Never contacts the backend; cheap, but callers may keep the views.
   *
   * @throws IllegalArgumentException when {@code maxReaders} is not positive
   */
  Optional<Views> readWriteViews(int maxReaders);

  /**
   * The two views of one reader-writer lock construction, over the same keys.
   *
   * @param read holds reader entries
   * @param write holds the writer entry
   */
  record Views(LockBackend read, LockBackend write) {
    /** Both views are required. */
    public Views {
      Objects.requireNonNull(read, "read");
      Objects.requireNonNull(write, "write");
    }
  }
}
