package io.hostloom.wopihost.tomcat;

import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;

/**
 * Closes the connection after an answer given before the request body was read (a 401 without a
 * token, a 404, a 409 lock mismatch, a 408 too slow, a 413 ...), instead of letting Tomcat read and
 * discard the rest of the body to keep the connection alive: Tomcat would wait for up to {@code
 * server.tomcat.max-swallow-size} (2 MB) with only the per-read timeout as a bound, so a few slow
 * senders without a token would hold the worker threads.
 *
 * <p>Body bytes already received and buffered are drained first (at most {@link #DRAIN_LIMIT},
 * without waiting for the network), so a small body that arrived with its headers, as most WOPI
 * clients send it, keeps its connection alive. Otherwise the answer gets {@code Connection: close}
 * (when it is not yet committed) and Tomcat is told not to swallow the rest: it sends the answer
 * and closes the connection.
 */
public final class EarlyAnswerValve extends ValveBase {
  /** The most already-buffered body bytes read and discarded to keep a connection alive. */
  static final int DRAIN_LIMIT = 64 * 1024;

  public EarlyAnswerValve() {
    super(true);
  }

  @Override
  public void invoke(Request request, Response response) throws IOException, ServletException {
    getNext().invoke(request, response);
    if (request.isAsync() || bodyFullyRead(request) || drainBuffered(request)) {
      return;
    }
    if (!response.isCommitted()) {
      response.setHeader("Connection", "close");
    }
    request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
  }

  private static boolean bodyFullyRead(Request request) {
    AtomicBoolean done = new AtomicBoolean(true);
    request.getCoyoteRequest().action(ActionCode.REQUEST_BODY_FULLY_READ, done);
    return done.get();
  }

  /** Reads what is already buffered, never waiting; whether the body is now fully read. */
  private static boolean drainBuffered(Request request) {
    try {
      ServletInputStream in = request.getInputStream();
      byte[] buffer = new byte[8192];
      int drained = 0;
      while (drained < DRAIN_LIMIT && in.available() > 0) {
        int n = in.read(buffer, 0, Math.min(buffer.length, in.available()));
        if (n < 0) {
          break;
        }
        drained += n;
      }
    } catch (IOException | IllegalStateException e) {
      return false; // the reader was taken, or the connection broke: do not keep it
    }
    return bodyFullyRead(request);
  }
}
