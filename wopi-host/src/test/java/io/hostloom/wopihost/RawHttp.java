package io.hostloom.wopihost;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * One HTTP/1.1 request written byte for byte to a socket, for what {@code java.net.http} will not
 * send: the same header twice as two lines (it may merge them) or headers far above a server's
 * limit. The answer is read until the server closes ({@code Connection: close}).
 */
final class RawHttp {
  private RawHttp() {}

  /** The status code and raw head of an answer. */
  record Answer(int status, String head) {
    boolean hasHeader(String name) {
      return head.toLowerCase(java.util.Locale.ROOT)
          .contains("\r\n" + name.toLowerCase(java.util.Locale.ROOT) + ":");
    }
  }

  /**
   * Sends {@code POST pathAndQuery} with {@code headers} (each entry one line, in order, repeats
   * allowed) and an empty body.
   */
  static Answer post(int port, String pathAndQuery, List<Map.Entry<String, String>> headers) {
    return send(port, "POST", pathAndQuery, "127.0.0.1:" + port, headers);
  }

  /** Sends one request with an empty body and the given {@code Host} header value. */
  static Answer send(
      int port,
      String method,
      String pathAndQuery,
      String host,
      List<Map.Entry<String, String>> headers) {
    String head = head(method, pathAndQuery, host, headers) + "Content-Length: 0\r\n\r\n";
    try (Socket s = connect(port)) {
      OutputStream out = s.getOutputStream();
      out.write(head.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      s.shutdownOutput();
      return parse(readAll(s.getInputStream()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Announces a body of {@code contentLength} bytes, sends {@code sent} of them through {@code
   * sender} (which may trickle them, from another thread), and reads the answer's head while the
   * rest of the body is still owed: the host must answer without waiting for it. Fails when no
   * answer arrives within 15 s.
   */
  static Answer partialBody(
      int port,
      String method,
      String pathAndQuery,
      List<Map.Entry<String, String>> headers,
      long contentLength,
      BodySender sender) {
    String head =
        head(method, pathAndQuery, "127.0.0.1:" + port, headers)
            + "Content-Length: "
            + contentLength
            + "\r\n\r\n";
    try (Socket s = connect(port)) {
      s.setSoTimeout(15_000);
      OutputStream out = s.getOutputStream();
      out.write(head.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      Thread t =
          new Thread(
              () -> {
                try {
                  sender.send(out);
                } catch (IOException | InterruptedException e) {
                  // the host answered and closed, or the test ended: stop sending
                }
              },
              "slow-sender");
      t.setDaemon(true);
      t.start();
      try {
        return parse(readHead(s.getInputStream()));
      } finally {
        t.interrupt();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes (part of) a request body. */
  interface BodySender {
    void send(OutputStream out) throws IOException, InterruptedException;
  }

  private static String head(
      String method, String pathAndQuery, String host, List<Map.Entry<String, String>> headers) {
    StringBuilder head = new StringBuilder();
    head.append(method).append(' ').append(pathAndQuery).append(" HTTP/1.1\r\n");
    head.append("Host: ").append(host).append("\r\n");
    for (Map.Entry<String, String> h : headers) {
      head.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
    }
    return head.append("Connection: close\r\n").toString();
  }

  private static Socket connect(int port) throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
    s.setSoTimeout(30_000);
    return s;
  }

  /** The bytes up to and including the blank line that ends the answer's head. */
  private static byte[] readHead(InputStream in) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    int matched = 0;
    int b;
    while (matched < 4 && (b = in.read()) >= 0) {
      all.write(b);
      matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    return all.toByteArray();
  }

  /** What the server sent before closing; a reset after the answer still leaves the answer. */
  private static byte[] readAll(InputStream in) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    try {
      int n;
      while ((n = in.read(buf)) > 0) {
        all.write(buf, 0, n);
      }
    } catch (SocketException e) {
      if (all.size() == 0) {
        throw e;
      }
    }
    return all.toByteArray();
  }

  private static Answer parse(byte[] raw) {
    String text = new String(raw, StandardCharsets.ISO_8859_1);
    int end = text.indexOf("\r\n\r\n");
    String head = end < 0 ? text : text.substring(0, end + 2);
    if (!head.startsWith("HTTP/1.1 ") || head.length() < 12) {
      throw new IllegalStateException("not an HTTP answer: " + head);
    }
    return new Answer(Integer.parseInt(head.substring(9, 12)), head);
  }
}
