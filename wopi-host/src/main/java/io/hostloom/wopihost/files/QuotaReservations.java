package io.hostloom.wopihost.files;

/**
 * The folder quota ({@code wopi-host.max-folder-size}) as reservations: an upload reserves the
 * bytes it may add before it writes them, checked and taken in one step, so concurrent uploads
 * through this instance cannot together take the folder above the quota. A reservation is made for
 * the announced {@code Content-Length} before the body is read (so a body that cannot fit is
 * refused unread), grown to the staged size for a body without one, and released once the upload
 * wrote or failed.
 *
 * <p>An upload's growth is its size minus the size of the file it replaces, never below zero, so a
 * shrinking upload frees nothing until it is written. A written upload is counted twice (in the
 * folder and in its reservation) until it is released: the quota errs on refusing. Instances
 * sharing the folder see each other's written files, not each other's reservations.
 */
public final class QuotaReservations {
  private final DocumentStore store;
  private final long maxBytes;
  private long reserved;

  public QuotaReservations(DocumentStore store, long maxBytes) {
    this.store = store;
    this.maxBytes = maxBytes;
  }

  /** An empty reservation for an upload that replaces {@code replacedBytes}; close it when done. */
  public Reservation open(long replacedBytes) {
    return new Reservation(replacedBytes);
  }

  /** The bytes currently reserved by uploads in flight. */
  public synchronized long reserved() {
    return reserved;
  }

  private synchronized boolean take(long bytes) {
    if (store.totalSize() + reserved + bytes > maxBytes) {
      return false;
    }
    reserved += bytes;
    return true;
  }

  private synchronized void give(long bytes) {
    reserved -= bytes;
  }

  /** The bytes one upload may add to the folder. Not thread-safe: one upload, one thread. */
  public final class Reservation implements AutoCloseable {
    private final long replacedBytes;
    private long growth;
    private boolean closed;

    private Reservation(long replacedBytes) {
      this.replacedBytes = replacedBytes;
    }

    /**
     * Makes the reservation cover an upload of {@code uploadBytes}; false (and unchanged) when the
     * folder's content, every reservation and this upload together would exceed the quota.
     */
    public boolean cover(long uploadBytes) {
      long needed = Math.max(0, uploadBytes - replacedBytes);
      if (closed || needed <= growth) {
        return !closed;
      }
      if (!take(needed - growth)) {
        return false;
      }
      growth = needed;
      return true;
    }

    /** Releases the reserved bytes (an upload that was written is then counted in the folder). */
    @Override
    public void close() {
      if (!closed) {
        closed = true;
        give(growth);
      }
    }
  }
}
