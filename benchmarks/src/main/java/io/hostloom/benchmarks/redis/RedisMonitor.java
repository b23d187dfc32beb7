package io.hostloom.benchmarks.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Counts the commands the server sees through {@code MONITOR}, split into commands sent by clients
 * (round trips) and commands run inside scripts. Used only for the calibration pass, never while
 * timing: {@code MONITOR} slows the server down.
 */
public final class RedisMonitor implements AutoCloseable {
  private static final Set<String> IGNORED =
      Set.of("ping", "info", "hello", "client", "select", "command", "auth", "monitor");

  private final Socket socket;
  private final Thread reader;
  private final Map<String, Long> client = new TreeMap<>();
  private final Map<String, Long> script = new TreeMap<>();

  public RedisMonitor(String host, int port) throws IOException {
    socket = new Socket();
    socket.connect(new InetSocketAddress(InetAddress.getByName(host), port), 5000);
    OutputStream out = socket.getOutputStream();
    out.write("*1\r\n$7\r\nMONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
    out.flush();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
    String ok = in.readLine();
    if (ok == null || !ok.startsWith("+OK")) {
      socket.close();
      throw new IOException("MONITOR refused: " + ok);
    }
    reader =
        new Thread(
            () -> {
              try {
                String line;
                while ((line = in.readLine()) != null) {
                  count(line);
                }
              } catch (IOException e) {
                // closed
              }
            },
            "redis-monitor");
    reader.setDaemon(true);
    reader.start();
  }

  private void count(String line) {
    // +1700000000.123456 [0 127.0.0.1:5555] "evalsha" "..."   or   [0 lua] "hmget" ...
    int bracket = line.indexOf('[');
    int close = line.indexOf(']', bracket + 1);
    int q1 = line.indexOf('"', close + 1);
    int q2 = line.indexOf('"', q1 + 1);
    if (bracket < 0 || close < 0 || q1 < 0 || q2 < 0) {
      return;
    }
    String name = line.substring(q1 + 1, q2).toLowerCase(Locale.ROOT);
    if (IGNORED.contains(name)) {
      return;
    }
    boolean fromScript = line.substring(bracket, close).contains("lua");
    synchronized (this) {
      (fromScript ? script : client).merge(name, 1L, Long::sum);
    }
  }

  /** Client commands per cycle, e.g. {@code 2 (2 EVALSHA)}. */
  /** The commands clients sent, lowercase (as INFO commandstats names them). */
  synchronized java.util.Set<String> clientCommandNames() {
    java.util.Set<String> names = new java.util.TreeSet<>();
    for (String c : client.keySet()) {
      names.add(c.toLowerCase(Locale.ROOT));
    }
    return names;
  }

  public synchronized String clientPerCycle(long cycles) {
    return perCycle(client, cycles);
  }

  /** Commands run inside scripts per cycle. */
  synchronized String scriptPerCycle(long cycles) {
    return perCycle(script, cycles);
  }

  /** Round trips per cycle: client commands / cycles. */
  public synchronized double roundTripsPerCycle(long cycles) {
    long n = 0;
    for (long v : client.values()) {
      n += v;
    }
    return (double) n / cycles;
  }

  private static String perCycle(Map<String, Long> counts, long cycles) {
    StringBuilder out = new StringBuilder();
    double total = 0;
    for (Map.Entry<String, Long> e : counts.entrySet()) {
      double per = (double) e.getValue() / cycles;
      total += per;
      if (out.length() > 0) {
        out.append(", ");
      }
      out.append(format(per)).append(' ').append(e.getKey().toUpperCase(Locale.ROOT));
    }
    return out.length() == 0 ? "0" : format(total) + " (" + out + ")";
  }

  private static String format(double v) {
    return Math.abs(v - Math.rint(v)) < 0.01
        ? Long.toString(Math.round(v))
        : String.format(Locale.ROOT, "%.2f", v);
  }

  @Override
  public void close() throws IOException {
    socket.close();
    try {
      reader.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
