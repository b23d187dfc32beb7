package io.hostloom.azure;

import io.hostloom.testkit.TestTiming;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A measurement, not a test (the name keeps it out of the default run; it asserts nothing): the
 * latency of each operation against Azurite on loopback, sequential, written to {@code
 * target/azure-latency.md}. Run with {@code ./mvnw -pl hostloom-azure verify
 * -Dtest=AzureLatencyReport}.
 */
class AzureLatencyReport {
  private static final int SAMPLES = 200;
  private static final Duration LONG = Duration.ofSeconds(60);

  @Test
  void measure() throws IOException {
    String container = Azurite.shared().newContainer("latency").getBlobContainerName();
    AzureBlobLockBackend b = Azurite.shared().backend(container).build();
    AzureBlobLockBackend other = Azurite.shared().backend(container).build();
    for (int w = 0; w < 100; w++) { // warm up the JIT and the connection pools
      String k = "warm-up-" + w;
      get(b.acquire(k, "a", "d", LONG));
      get(other.acquire(k, "b", "d", LONG));
      get(other.read(k));
      get(b.release(k, "a"));
    }
    Map<String, long[]> results = new LinkedHashMap<>();
    String[] keys = new String[SAMPLES];
    for (int i = 0; i < SAMPLES; i++) {
      keys[i] = "lat-" + UUID.randomUUID();
    }
    int[] i = {0};
    results.put("acquire, free key", time(() -> b.acquire(keys[i[0]++], "a", "d", LONG), i));
    results.put("acquire, held", time(() -> other.acquire(keys[i[0]++], "b", "d", LONG), i));
    results.put("acquire, same owner", time(() -> b.acquire(keys[i[0]++], "a", "d", LONG), i));
    results.put("read, live", time(() -> other.read(keys[i[0]++]), i));
    results.put("extend", time(() -> b.extend(keys[i[0]++], "a", LONG), i));
    results.put("replace", time(() -> b.replace(keys[i[0]++], "a", "c", "e", LONG), i));
    results.put("release", time(() -> b.release(keys[i[0]++], "c"), i));
    results.put("read, free", time(() -> other.read(keys[i[0]++]), i));

    StringBuilder md =
        new StringBuilder("| operation | median ms | p90 ms | p99 ms |\n|---|---|---|---|\n");
    results.forEach(
        (name, nanos) -> {
          Arrays.sort(nanos);
          md.append("| ")
              .append(name)
              .append(" | ")
              .append(ms(nanos[nanos.length / 2]))
              .append(" | ")
              .append(ms(nanos[nanos.length * 9 / 10]))
              .append(" | ")
              .append(ms(nanos[nanos.length * 99 / 100]))
              .append(" |\n");
        });
    Path out = Path.of("target", "azure-latency.md");
    Files.createDirectories(out.getParent());
    Files.writeString(out, md.toString(), StandardCharsets.UTF_8);
  }

  private static long[] time(Supplier<CompletableFuture<?>> op, int[] index) {
    index[0] = 0;
    long[] nanos = new long[SAMPLES];
    for (int n = 0; n < SAMPLES; n++) {
      long start = System.nanoTime();
      get(op.get());
      nanos[n] = System.nanoTime() - start;
    }
    return nanos;
  }

  private static String ms(long nanos) {
    return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e6);
  }

  private static <T> T get(CompletableFuture<T> f) {
    return TestTiming.get(f, Duration.ofSeconds(10));
  }
}
