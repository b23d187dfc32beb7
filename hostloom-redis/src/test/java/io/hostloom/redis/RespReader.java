package io.hostloom.redis;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads one RESP2 reply as text, for the test fixture's raw admin commands: simple strings, errors
 * and integers as they are, bulk strings as their content ({@code (nil)} for null), arrays as their
 * elements joined by newlines.
 */
final class RespReader {
  private RespReader() {}

  static String read(InputStream in) throws IOException {
    int type = in.read();
    String line = line(in);
    return switch (type) {
      case '+', '-', ':' -> line;
      case '$' -> bulk(in, Integer.parseInt(line));
      case '*' -> array(in, Integer.parseInt(line));
      case -1 -> throw new EOFException("connection closed");
      default -> throw new IOException("unexpected RESP type " + (char) type);
    };
  }

  private static String bulk(InputStream in, int len) throws IOException {
    if (len < 0) {
      return "(nil)";
    }
    byte[] b = in.readNBytes(len + 2);
    return new String(b, 0, len, StandardCharsets.UTF_8);
  }

  private static String array(InputStream in, int n) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        sb.append('\n');
      }
      sb.append(read(in));
    }
    return sb.toString();
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) != -1) {
      if (c == '\r') {
        in.read(); // '\n'
        break;
      }
      out.write(c);
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
