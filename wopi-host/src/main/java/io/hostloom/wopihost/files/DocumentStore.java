package io.hostloom.wopihost.files;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The documents folder: one regular file per WOPI file id, directly in the folder. Host bookkeeping
 * lives in the hidden {@code .wopi} sub-folder, which no id can name: display names after a
 * RenameFile ({@code .wopi/names/<id>}) and temporary files for atomic writes.
 *
 * <p><b>Versions.</b> A file's version is its modification time in microseconds. Writes go to a
 * temporary file that is atomically moved over the old one, then the modification time is set to a
 * value strictly greater than the previous version, so every PutFile changes the version even
 * within one clock tick, and nothing else the host does changes it. Several host instances sharing
 * the folder therefore report the same version without any shared state besides the folder.
 *
 * <p><b>Concurrency.</b> Each operation is atomic on the file system (atomic move, create-new);
 * writes to the same id are serialised within this instance. Whether a write is <em>allowed</em> is
 * the WOPI lock's business, decided before the store is called.
 */
public final class DocumentStore {
  private static final String HOST_DIR = ".wopi";

  private final Path root;
  private final Path names;
  private final Path temp;
  private final Clock clock;
  private final ConcurrentMap<String, Object> writeMutexes = new ConcurrentHashMap<>();

  /**
   * A store over {@code root}, created (with its bookkeeping folders) if missing.
   *
   * @throws UncheckedIOException when the folder cannot be created
   */
  public DocumentStore(Path root, Clock clock) {
    this.root = root.toAbsolutePath().normalize();
    this.names = this.root.resolve(HOST_DIR).resolve("names");
    this.temp = this.root.resolve(HOST_DIR).resolve("tmp");
    this.clock = Objects.requireNonNull(clock, "clock");
    try {
      Files.createDirectories(names);
      Files.createDirectories(temp);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the documents folder " + this.root, e);
    }
  }

  /** The absolute, normalised documents folder. */
  public Path root() {
    return root;
  }

  /** Every document, sorted by id. */
  public List<Document> list() {
    List<Document> docs = new ArrayList<>();
    try (DirectoryStream<Path> dir = Files.newDirectoryStream(root)) {
      for (Path p : dir) {
        String id = p.getFileName().toString();
        if (FileIds.isValid(id)) {
          find(id).ifPresent(docs::add);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + root, e);
    }
    docs.sort(Comparator.comparing(Document::id));
    return docs;
  }

  /**
   * The bytes the documents take, the sum of {@link #list()}'s sizes (host bookkeeping and staged
   * uploads not counted). Read from the folder on each call, so it sees other instances' writes.
   */
  public long totalSize() {
    return list().stream().mapToLong(Document::size).sum();
  }

  /** The document with {@code id}, or empty when the id is invalid or no such file exists. */
  public Optional<Document> find(String id) {
    Optional<Path> path = FileIds.resolve(root, id);
    if (path.isEmpty() || !Files.isRegularFile(path.get(), LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    try {
      FileTime mtime = Files.getLastModifiedTime(path.get(), LinkOption.NOFOLLOW_LINKS);
      long size = Files.size(path.get());
      return Optional.of(
          new Document(id, displayName(id), size, Long.toString(micros(mtime)), mtime.toInstant()));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + id, e);
    }
  }

  /**
   * Opens the content of {@code id} for reading; the caller closes the channel. Its size is the
   * size of exactly the content it reads, even if a write replaces the file meanwhile.
   *
   * @throws NoSuchFileException when the document does not exist (or the id is invalid)
   */
  public SeekableByteChannel open(String id) throws IOException {
    Path path = FileIds.resolve(root, id).orElseThrow(() -> new NoSuchFileException(id));
    return Files.newByteChannel(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
  }

  /**
   * Copies {@code in} to a temporary file in the store, reading at most {@code maxBytes + 1} bytes,
   * so a body larger than the limit is never buffered in memory nor kept on disk. Nothing a client
   * can see changes; the caller closes the result, which deletes it unless a write used it.
   *
   * @return the staged content, or empty (nothing left on disk) when {@code in} has more than
   *     {@code maxBytes} bytes
   * @throws IOException when reading {@code in} or writing the temporary file fails (the temporary
   *     file is deleted)
   */
  public Optional<StagedContent> stage(InputStream in, long maxBytes) throws IOException {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("maxBytes must be >= 0 but was " + maxBytes);
    }
    Path tmp = temp.resolve(UUID.randomUUID().toString());
    boolean keep = false;
    try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.CREATE_NEW)) {
      byte[] buffer = new byte[64 * 1024];
      long total = 0;
      int n;
      while ((n = in.read(buffer, 0, (int) Math.min(buffer.length, maxBytes - total + 1))) > 0) {
        total += n;
        if (total > maxBytes) {
          return Optional.empty();
        }
        out.write(buffer, 0, n);
      }
      keep = true;
      return Optional.of(new StagedContent(tmp, total));
    } finally {
      if (!keep) {
        Files.deleteIfExists(tmp);
      }
    }
  }

  /**
   * Replaces the content of the existing document {@code id} and gives it a new version.
   *
   * @return the document after the write, or empty when it does not exist
   */
  public Optional<Document> write(String id, byte[] content) {
    try (StagedContent staged = stageBytes(content)) {
      return write(id, staged);
    }
  }

  /**
   * Replaces the content of the existing document {@code id} with {@code content} (moved, not
   * copied: it can be used by one successful write only) and gives it a new version.
   *
   * @return the document after the write, or empty when it does not exist
   */
  public Optional<Document> write(String id, StagedContent content) {
    return write(id, content, current -> true);
  }

  /**
   * As {@link #write(String, StagedContent)}, when {@code stillAllowed} accepts the document as it
   * is just before the write: checked under the same per-id mutex as the write, so no other write
   * through this store lands in between (a PutFile's lock is checked again here, when the body has
   * arrived).
   *
   * @return the document after the write, or empty when it does not exist or was not allowed
   */
  public Optional<Document> write(
      String id, StagedContent content, Predicate<Document> stillAllowed) {
    Optional<Path> resolved = FileIds.resolve(root, id);
    if (resolved.isEmpty()) {
      return Optional.empty();
    }
    Path path = resolved.get();
    synchronized (writeMutexes.computeIfAbsent(id, k -> new Object())) {
      Optional<Document> current = find(id);
      if (current.isEmpty() || !stillAllowed.test(current.get())) {
        return Optional.empty();
      }
      try {
        long previous = micros(Files.getLastModifiedTime(path, LinkOption.NOFOLLOW_LINKS));
        move(content.path(), path);
        bumpVersion(path, previous);
      } catch (NoSuchFileException e) {
        return Optional.empty();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write " + id, e);
      }
    }
    return find(id);
  }

  /**
   * Creates a new document {@code id} with {@code content}.
   *
   * @return the new document, or empty when the id is invalid or a file with that id exists
   */
  public Optional<Document> create(String id, byte[] content) {
    try (StagedContent staged = stageBytes(content)) {
      return create(id, staged);
    }
  }

  /**
   * Creates a new document {@code id} with {@code content}, which stays staged (so a caller can try
   * other ids with it).
   *
   * @return the new document, or empty when the id is invalid or a file with that id exists
   */
  public Optional<Document> create(String id, StagedContent content) {
    Optional<Path> path = FileIds.resolve(root, id);
    if (path.isEmpty()) {
      return Optional.empty();
    }
    try {
      try {
        // a hard link appears complete and fails if the id is taken
        Files.createLink(path.get(), content.path());
      } catch (FileAlreadyExistsException e) {
        throw e;
      } catch (UnsupportedOperationException | IOException e) {
        Files.copy(content.path(), path.get()); // no hard links here: copy, still create-new
      }
      Files.deleteIfExists(names.resolve(id)); // a stale display name from a deleted file
    } catch (FileAlreadyExistsException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + id, e);
    }
    return find(id);
  }

  /**
   * Gives {@code id} the display name {@code baseName} plus the current extension. The id (and so
   * every WOPISrc) stays the same.
   *
   * @return the renamed document, or empty when it does not exist
   * @throws IllegalArgumentException when the resulting name is not a valid file name
   */
  public Optional<Document> rename(String id, String baseName) {
    Optional<Document> current = find(id);
    if (current.isEmpty()) {
      return Optional.empty();
    }
    String newName = baseName + current.get().extension();
    if (!FileIds.isValid(newName)) {
      throw new IllegalArgumentException("not a valid file name: " + newName);
    }
    try {
      Path tmp = temp.resolve(UUID.randomUUID().toString());
      Files.writeString(tmp, newName, StandardCharsets.UTF_8);
      move(tmp, names.resolve(id));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot rename " + id, e);
    }
    return find(id);
  }

  /** Deletes {@code id}; returns whether a file was deleted. */
  public boolean delete(String id) {
    Optional<Path> path = FileIds.resolve(root, id);
    if (path.isEmpty()) {
      return false;
    }
    try {
      boolean deleted = Files.deleteIfExists(path.get());
      Files.deleteIfExists(names.resolve(id));
      return deleted;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + id, e);
    }
  }

  private String displayName(String id) throws IOException {
    Path name = names.resolve(id);
    try {
      String stored = Files.readString(name, StandardCharsets.UTF_8).strip();
      return FileIds.isValid(stored) ? stored : id;
    } catch (NoSuchFileException e) {
      return id;
    }
  }

  private StagedContent stageBytes(byte[] content) {
    try {
      return stage(new ByteArrayInputStream(content), content.length).orElseThrow();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stage content", e);
    }
  }

  private static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** Sets the modification time strictly above {@code previous}, also on coarse file systems. */
  private void bumpVersion(Path path, long previous) throws IOException {
    long now = TimeUnit.MILLISECONDS.toMicros(clock.millis());
    long target = Math.max(now, previous + 1);
    Files.setLastModifiedTime(path, FileTime.from(target, TimeUnit.MICROSECONDS));
    long stored = micros(Files.getLastModifiedTime(path, LinkOption.NOFOLLOW_LINKS));
    if (stored <= previous) {
      // the file system keeps whole seconds (or coarser): step to the next representable second
      long nextSecond = (previous / 1_000_000 + 2) * 1_000_000;
      Files.setLastModifiedTime(path, FileTime.from(nextSecond, TimeUnit.MICROSECONDS));
    }
  }

  private static long micros(FileTime time) {
    return time.to(TimeUnit.MICROSECONDS);
  }
}
