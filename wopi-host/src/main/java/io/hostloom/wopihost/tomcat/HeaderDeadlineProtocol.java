package io.hostloom.wopihost.tomcat;

import java.io.IOException;
import java.time.Duration;
import org.apache.coyote.Processor;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.coyote.http11.Http11Processor;
import org.apache.tomcat.util.net.AbstractEndpoint.Handler.SocketState;
import org.apache.tomcat.util.net.SocketWrapperBase;

/**
 * Tomcat's NIO HTTP/1.1 protocol with an overall deadline for a request's line and headers ({@code
 * wopi-host.max-header-time}). Tomcat bounds each read only ({@code
 * server.tomcat.connection-timeout}), so a client sending one header byte just before every timeout
 * would hold its connection for ever. Tomcat marks the request's start when the first byte of the
 * request line arrives; each time more header bytes arrive after that, the connection is closed
 * when the deadline has passed. A client that sends nothing more is closed by the read timeout, so
 * headers take at most the deadline plus that timeout.
 */
public class HeaderDeadlineProtocol extends Http11NioProtocol {
  private volatile long maxHeaderNanos = Duration.ofSeconds(10).toNanos();

  /** Public no-argument constructor: Tomcat creates the protocol from its class name. */
  public HeaderDeadlineProtocol() {
    super();
  }

  /**
   * @throws IllegalArgumentException when {@code limit} is not positive
   */
  public void setMaxHeaderTime(Duration limit) {
    if (limit.isNegative() || limit.isZero()) {
      throw new IllegalArgumentException("the header deadline must be positive but was " + limit);
    }
    this.maxHeaderNanos = limit.toNanos();
  }

  public Duration getMaxHeaderTime() {
    return Duration.ofNanos(maxHeaderNanos);
  }

  @Override
  protected Processor createProcessor() {
    return new DeadlineProcessor(this);
  }

  /** Closes the connection when its request's headers are still incomplete past the deadline. */
  private static final class DeadlineProcessor extends Http11Processor {
    private final HeaderDeadlineProtocol protocol;

    DeadlineProcessor(HeaderDeadlineProtocol protocol) {
      super(protocol, protocol.getAdapter());
      this.protocol = protocol;
    }

    @Override
    public SocketState service(SocketWrapperBase<?> socketWrapper) throws IOException {
      // Re-entered with a started request only while its headers are incomplete: a request whose
      // headers are complete is served within one call (its body is read blocking), and the
      // start mark is reset (-1) once a request ends.
      long started = getRequest().getStartTimeNanos();
      if (started >= 0 && System.nanoTime() - started > protocol.maxHeaderNanos) {
        return SocketState.CLOSED;
      }
      return super.service(socketWrapper);
    }
  }
}
