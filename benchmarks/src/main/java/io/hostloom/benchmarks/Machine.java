package io.hostloom.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.regex.Pattern;

/** Facts about the machine and the libraries, for the report header. */
public final class Machine {
  private static final Pattern SPACES = Pattern.compile("\\s+");

  private Machine() {}

  /** The 1-, 5- and 15-minute load averages, as in {@code /proc/loadavg}. */
  public static String loadAverage() {
    try {
      String[] f = SPACES.split(Files.readString(Path.of("/proc/loadavg")).trim(), -1);
      return f[0] + ", " + f[1] + ", " + f[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  /** The 1-minute load average, or NaN. */
  public static double loadAverage1() {
    try {
      return Double.parseDouble(
          SPACES.split(Files.readString(Path.of("/proc/loadavg")).trim(), -1)[0]);
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
  }

  public static String cpuModel() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      // fall through
    }
    return System.getProperty("os.arch");
  }

  public static String memory() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
          return String.format(Locale.ROOT, "%.1f GiB", kb / 1024.0 / 1024.0);
        }
      }
    } catch (IOException | RuntimeException e) {
      // fall through
    }
    return "unknown";
  }

  public static String describe() {
    return String.join(
        "; ",
        List.of(
            Runtime.getRuntime().availableProcessors() + " CPUs (nproc)",
            cpuModel(),
            memory() + " RAM",
            System.getProperty("os.name") + " " + System.getProperty("os.version"),
            "Java "
                + System.getProperty("java.vm.version")
                + " ("
                + System.getProperty("java.vm.name")
                + ")"));
  }

  /** The version in a library jar's Maven metadata, or "?". */
  public static String version(String groupId, String artifactId) {
    String resource = "/META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties";
    try (InputStream in = Machine.class.getResourceAsStream(resource)) {
      if (in == null) {
        return "?";
      }
      Properties p = new Properties();
      p.load(in);
      return p.getProperty("version", "?");
    } catch (IOException e) {
      return "?";
    }
  }

  /** The jar manifest's Implementation-Version of {@code type}'s package, or "?". */
  public static String version(Class<?> type) {
    String v = type.getPackage() == null ? null : type.getPackage().getImplementationVersion();
    return v == null ? "?" : v;
  }
}
