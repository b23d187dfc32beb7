package io.hostloom.cli;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Who this hostloom is, for humans: {@code user@host:pid}, the default of {@code --owner}. */
final class Identity {
  private Identity() {}

  static String describe() {
    String host = System.getenv("HOSTNAME");
    if (host == null || host.isBlank()) {
      try {
        host = InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        host = "localhost";
      }
    }
    return System.getProperty("user.name", "unknown")
        + "@"
        + host
        + ":"
        + ProcessHandle.current().pid();
  }
}
