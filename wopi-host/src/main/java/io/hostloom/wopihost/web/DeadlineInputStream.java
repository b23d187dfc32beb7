package io.hostloom.wopihost.web;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;

/**
 * A request body that must arrive within a time limit: every read after the deadline throws {@link
 * TooSlowException}. A read that blocks is bounded by the server's socket timeout, so a sender
 * trickling bytes, or stalling, holds a worker for at most the limit plus that timeout.
 */
final class DeadlineInputStream extends FilterInputStream {
  private final long deadlineNanos;
  private final Duration limit;

  DeadlineInputStream(InputStream in, Duration limit) {
    super(in);
    this.limit = limit;
    this.deadlineNanos = System.nanoTime() + limit.toNanos();
  }

  @Override
  public int read() throws IOException {
    check();
    int b = super.read();
    check();
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    check();
    int n = super.read(b, off, len);
    check();
    return n;
  }

  private void check() throws TooSlowException {
    if (System.nanoTime() - deadlineNanos > 0) {
      throw new TooSlowException(limit);
    }
  }

  /** The body did not arrive within {@code wopi-host.max-upload-time}. */
  static final class TooSlowException extends IOException {
    private static final long serialVersionUID = 1L;

    TooSlowException(Duration limit) {
      super("the request body did not arrive within " + limit);
    }
  }
}
