package io.hostloom.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;

/**
 * A thread-safe recorder of who held which key when, with fencing tokens, checked by {@link
 * HistoryChecker}. Holders record what they <em>observed</em>:
 *
 * <pre>{@code
 * long sent = LockHistory.now();
 * AcquireOutcome o = backend.acquire(key, owner, data, lease).join();
 * if (o.granted()) {
 *   LockHistory.Hold hold = history.enter(key, label, o.fencingToken(), sent, lease);
 *   ... // critical section
 *   hold.exit(); // before sending the release
 *   backend.release(key, owner).join();
 * }
 * }</pre>
 *
 * <p><b>Ledger.</b> {@link #appendingTo(Path)} also appends every event, as one line, to a file
 * (created if missing) with a single {@code O_APPEND} write per line, so several threads, and
 * several processes on the same host, may share one ledger, though one file per process is
 * simplest. Lines are not fsynced: a killed process ({@code kill -9}) loses nothing the kernel has
 * accepted, and a holder that vanished without {@link Hold#exit()} simply holds until its lease
 * ends. {@link #readLedger} merges files and ignores a torn last line.
 */
public final class LockHistory implements AutoCloseable {
  private final ConcurrentLinkedQueue<LockEvent> events = new ConcurrentLinkedQueue<>();
  private final FileChannel ledger;

  /** A history kept in memory only. */
  public LockHistory() {
    this.ledger = null;
  }

  private LockHistory(FileChannel ledger) {
    this.ledger = ledger;
  }

  /**
   * A history that also appends each event to {@code file}.
   *
   * @throws UncheckedIOException when the file cannot be opened for appending
   */
  public static LockHistory appendingTo(Path file) {
    try {
      return new LockHistory(
          FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the ledger " + file, e);
    }
  }

  /** The history's clock: {@link System#nanoTime()}. */
  public static long now() {
    return System.nanoTime();
  }

  /**
   * Records that {@code holder} was granted {@code key}, now.
   *
   * @param sentNanos {@link #now()} taken before the acquire was sent
   * @param lease the lease requested
   * @return the hold, to record its extensions and exit
   */
  public Hold enter(String key, String holder, long fencingToken, long sentNanos, Duration lease) {
    record(
        new LockEvent(
            LockEvent.Type.ENTER, key, holder, fencingToken, sentNanos, now(), lease.toNanos()));
    return new Hold(key, holder, fencingToken);
  }

  /** Records {@code event} as given (for events built elsewhere, e.g. by another process). */
  public void record(LockEvent event) {
    Objects.requireNonNull(event, "event");
    events.add(event);
    if (ledger != null) {
      write(event);
    }
  }

  /** A snapshot of the events recorded so far, in recording order. */
  public List<LockEvent> events() {
    return new ArrayList<>(events);
  }

  /** Checks the events recorded so far. */
  public HistoryReport check() {
    return HistoryChecker.check(events());
  }

  /** Closes the ledger file, if any; in-memory events stay readable. */
  @Override
  public void close() {
    if (ledger != null) {
      try {
        ledger.close();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot close the ledger", e);
      }
    }
  }

  /**
   * Reads and merges ledger files written by {@link #appendingTo}. A last line without its line
   * terminator (a writer killed mid-write) is ignored; any other malformed line fails.
   *
   * @throws UncheckedIOException when a file cannot be read
   * @throws IllegalArgumentException on a malformed complete line
   */
  public static List<LockEvent> readLedger(Path... files) {
    List<LockEvent> out = new ArrayList<>();
    for (Path file : files) {
      String text;
      try {
        text = Files.readString(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the ledger " + file, e);
      }
      int complete = text.lastIndexOf('\n') + 1; // drops a torn last line
      try (Stream<String> lines = text.substring(0, complete).lines()) {
        lines.filter(l -> !l.isBlank()).map(LockEvent::parse).forEach(out::add);
      }
    }
    return out;
  }

  private void write(LockEvent event) {
    ByteBuffer line = ByteBuffer.wrap((event.toLine() + "\n").getBytes(StandardCharsets.UTF_8));
    try {
      synchronized (ledger) {
        while (line.hasRemaining()) {
          ledger.write(line);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to the ledger", e);
    }
  }

  /** One grant being held; records its extensions and its end. */
  public final class Hold {
    private final String key;
    private final String holder;
    private final long fencingToken;

    private Hold(String key, String holder, long fencingToken) {
      this.key = key;
      this.holder = holder;
      this.fencingToken = fencingToken;
    }

    /**
     * Records a successful extension (or same-owner re-acquire), seen now.
     *
     * @param sentNanos {@link #now()} taken before the extend was sent
     */
    public void extended(long sentNanos, Duration lease) {
      record(
          new LockEvent(
              LockEvent.Type.EXTEND, key, holder, fencingToken, sentNanos, now(), lease.toNanos()));
    }

    /** Records that the holder stops relying on the lock, now; call before sending the release. */
    public void exit() {
      exit(now());
    }

    /**
     * Records that the holder stopped relying on the lock at {@code atNanos}, e.g. when the release
     * was sent before the grant arrived (the hold is then empty, and never relied upon).
     */
    public void exit(long atNanos) {
      record(new LockEvent(LockEvent.Type.EXIT, key, holder, fencingToken, atNanos, atNanos, 0));
    }

    public long fencingToken() {
      return fencingToken;
    }
  }
}
