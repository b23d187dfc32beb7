package io.hostloom.locking.spi;

import java.util.Optional;

/**
 * Optional capability of a {@link LockBackend}: counting-semaphore permits kept natively, as the
 * entries of one record per semaphore, so that taking <em>any</em> free permit is one atomic
 * operation instead of one attempt per slot key. {@code DistributedSemaphores} uses it when the
 * backend object passed to it implements this interface and {@link #permitView} answers a view;
 * otherwise (and for backends without it) the semaphore is built from N slot keys on the plain
 * operations. A decorator that wraps such a backend offers the capability only if it implements
 * this interface itself (recording or checking the view's calls as it does the backend's).
 *
 * <p><b>The view</b> is a {@link LockBackend} for semaphores of {@code permits} permits, through
 * which the kernel's lease engine holds permits exactly as it holds locks (owner tokens, fencing
 * tokens, extension, release, orphan release). A view key names a whole semaphore; each live
 * <em>entry</em> of the key is one permit of one owner, with its data, expiry and fencing token.
 * Each operation is atomic on the backend:
 *
 * <ul>
 *   <li>{@link LockBackend#acquire acquire(key, owner, data, lease)}: when {@code owner} has a live
 *       entry, its expiry becomes now + lease and it keeps its token and data (granted with that
 *       token: a retried acquire is idempotent, as for the lock). Otherwise, when fewer than {@code
 *       permits} entries are live and every live entry was granted by a view of the same {@code
 *       permits}, adds {@code owner}'s entry and answers granted with a new token {@code t}: larger
 *       than every earlier token of the key (of any entry), and with {@code t mod permits} a
 *       <em>slot</em> that no live entry's token has; the lowest such slot. Otherwise refused
 *       ("held") with the record of the live entry that expires first, whose data is what its owner
 *       stored (a semaphore stores its permit count there, which is how a caller with another count
 *       tells the mismatch: while entries of another count are live, every acquire is refused).
 *   <li>{@link LockBackend#extend extend}: {@code owner}'s live entry gets expiry now + lease;
 *       otherwise refused as absent (never with another owner's record).
 *   <li>{@link LockBackend#release release}: removes {@code owner}'s live entry; otherwise refused
 *       as absent.
 *   <li>{@link LockBackend#read read}: the live entry that expires first, or empty.
 *   <li>{@link LockBackend#replace replace}: not part of the view (the lease engine never calls
 *       it); it fails with a {@link LockBackendException} of kind {@code OTHER}.
 * </ul>
 *
 * <p>The rules of {@link LockBackend} hold entry by entry: the backend's clock decides expiry (an
 * entry whose expiry is at or before the backend's now is not live, never counts and never blocks a
 * grant), nothing destructive is unconditional, calls are bounded, failures are typed. Tokens
 * strictly increase per key over all entries (so they also strictly increase per slot) for as long
 * as the backend keeps the key's data; a view keeps its counter whatever the backend's own fencing
 * settings, because the slot is derived from the token.
 *
 * <p><b>Release signal.</b> When the backend is also a {@link ReleaseSignal}, a release of an entry
 * of a view key is announced as a release of that key: {@code awaitRelease(key, ..)} with the view
 * key wakes on it, under the same hint rules.
 *
 * <p><b>Keys.</b> The records a view writes for a key never meet the records of the backend's own
 * operations for any key; each backend's README gives its layout. The generic slot construction of
 * another process does not see a view's entries (nor the other way round): all processes of one
 * semaphore must use the same construction, which they do when they use the same backend type.
 */
public interface PermitLeases {

  /**
   * The permit view for semaphores of {@code permits} permits, or empty when this backend instance
   * cannot offer one (for example a compatibility key layout); then the generic construction is
   * used. Whether a view is offered depends on the backend instance only, never on {@code permits},
   * so callers of one name with different counts use the same construction and see each other's
   * mismatch. Never contacts the backend; cheap, but callers may keep the view.
   *
   * @throws IllegalArgumentException when {@code permits} is not positive
   */
  Optional<LockBackend> permitView(int permits);
}
