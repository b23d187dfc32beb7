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
    StringBuilder head = new StringBuilder();
    head.append("POST ").append(pathAndQuery).append(" HTTP/1.1\r\n");
    head.append("Host: 127.0.0.1:").append(port).append("\r\n");
    for (Map.Entry<String, String> h : headers) {
      head.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
    }
    head.append("Content-Length: 0\r\nConnection: close\r\n\r\n");
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
      s.setSoTimeout(30_000);
      OutputStream out = s.getOutputStream();
      out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      s.shutdownOutput();
      return parse(readAll(s.getInputStream()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
