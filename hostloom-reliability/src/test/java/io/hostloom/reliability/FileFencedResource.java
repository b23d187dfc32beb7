package io.hostloom.reliability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link FencedResource} in a directory: one 24-byte file per key (fence, accepted writes, last
 * value), read and rewritten under an exclusive OS file lock, so the check and the write are one
 * atomic step across processes, like {@code UPDATE r SET ... WHERE id = ? AND fence <= ?}. Keys
 * must be file-name safe.
 */
final class FileFencedResource implements FencedResource {
  private static final int SIZE = 3 * Long.BYTES;

  // OS file locks are held per JVM, not per thread: threads of one process queue here first
  private static final Map<String, Object> MONITORS = new ConcurrentHashMap<>();

  private final Path dir;

  FileFencedResource(Path dir) {
    this.dir = dir;
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public boolean write(String key, long token, long value) {
    synchronized (monitor(key)) {
      return writeLocked(key, token, value);
    }
  }

  private boolean writeLocked(String key, long token, long value) {
    try (FileChannel ch = open(key)) {
      ch.lock(); // released when the channel closes
      long[] r = read(ch);
      if (token < r[0]) {
        return false; // a newer holder has written: this one is stale
      }
      ByteBuffer b = ByteBuffer.allocate(SIZE);
      b.putLong(token).putLong(r[1] + 1).putLong(value).flip();
      ch.write(b, 0);
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the fenced record of " + key, e);
    }
  }

  @Override
  public long fence(String key) {
    return snapshot(key)[0];
  }

  @Override
  public long accepted(String key) {
    return snapshot(key)[1];
  }

  @Override
  public void close() {
    // nothing held between calls
  }

  private long[] snapshot(String key) {
    synchronized (monitor(key)) {
      return snapshotLocked(key);
    }
  }

  private long[] snapshotLocked(String key) {
    try (FileChannel ch = open(key)) {
      ch.lock(); // released when the channel closes
      return read(ch);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the fenced record of " + key, e);
    }
  }

  private Object monitor(String key) {
    return MONITORS.computeIfAbsent(dir.resolve(key).toString(), k -> new Object());
  }

  private FileChannel open(String key) throws IOException {
    if (!key.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException("not a file-name safe key: " + key);
    }
    return FileChannel.open(
        dir.resolve(key + ".fence"),
        StandardOpenOption.CREATE,
        StandardOpenOption.READ,
        StandardOpenOption.WRITE);
  }

  private static long[] read(FileChannel ch) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(SIZE);
    while (b.hasRemaining() && ch.read(b, b.position()) > 0) {
      // keep reading until the record is complete or the file ends
    }
    if (b.position() < SIZE) {
      return new long[] {0, 0, 0};
    }
    b.flip();
    return new long[] {b.getLong(), b.getLong(), b.getLong()};
  }
}
