package io.hostloom.wopihost.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * New content waiting in the store's temporary folder to become a document's content ({@link
 * DocumentStore#stage}). It is on disk, never in memory, so its size is bounded by the limit given
 * to {@code stage}, not by the heap. {@link #close()} deletes it unless a write moved it away.
 */
public final class StagedContent implements AutoCloseable {
  private final Path path;
  private final long size;

  StagedContent(Path path, long size) {
    this.path = path;
    this.size = size;
  }

  /** The number of bytes staged. */
  public long size() {
    return size;
  }

  Path path() {
    return path;
  }

  /**
   * Deletes the temporary file if it is still there.
   *
   * @throws UncheckedIOException when it cannot be deleted
   */
  @Override
  public void close() {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete staged content " + path, e);
    }
  }
}
