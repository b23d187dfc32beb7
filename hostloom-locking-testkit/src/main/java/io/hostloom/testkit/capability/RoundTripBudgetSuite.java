package io.hostloom.testkit.capability;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.BackendHealthProbe;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.capability.RoundTripBudget.Case;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A round-trip budget per SPI operation and outcome, as one JUnit 5 suite: the backend declares
 * what each {@link Case} costs ({@link #budget()}) and supplies its own counters ({@link
 * RoundTripCounter}: server statistics, the wire); the suite runs every case on one counted
 * instance, asserts that <em>every</em> counter saw exactly the declared round trips, and prints
 * (and optionally writes, {@link #tableFile()}) the table the backend's README quotes.
 *
 * <pre>{@code
 * class RedisRoundTripBudgetTest extends RoundTripBudgetSuite {
 *   @Override protected RoundTripBudget budget() { return RoundTripBudget.everyCase(1)
 *       .with(Case.AWAIT_RELEASE, 0); }
 *   @Override protected CountedBackend newCountedBackend() {
 *     return new CountedBackend(backend, List.of(commandStatsCounter));
 *   }
 *   @Override protected LockBackend newBackend() { return RedisLockBackend.create(uri); }
 * }
 * }</pre>
 *
 * <p>Setup steps (the leases a case needs) run on a separate, uncounted instance ({@link
 * #newBackend()}), so a counter may count everything its server runs. Before the cases, every
 * operation runs once on the counted instance ({@link #warmUp}), so first-use costs (loading a
 * script, opening a pool, creating a container) stay out of the figures. Lifecycle: one counted
 * instance per class ({@link TestInstance.Lifecycle#PER_CLASS}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class RoundTripBudgetSuite {

  /**
   * The counted instance and the counters that watch it.
   *
   * @param backend the instance every measured call goes to
   * @param counters at least one; each must count the round trips of {@code backend}
   * @param onClose run after the suite (close the instance and what the counters hold)
   */
  public record CountedBackend(
      LockBackend backend, List<RoundTripCounter> counters, AutoCloseable onClose) {
    public CountedBackend {
      Objects.requireNonNull(backend, "backend");
      counters = List.copyOf(counters);
      if (counters.isEmpty()) {
        throw new IllegalArgumentException("counters must not be empty");
      }
      Objects.requireNonNull(onClose, "onClose");
    }

    /** Closes {@code backend} (if {@link AutoCloseable}) after the suite. */
    public CountedBackend(LockBackend backend, List<RoundTripCounter> counters) {
      this(
          backend,
          counters,
          () -> {
            if (backend instanceof AutoCloseable c) {
              c.close();
            }
          });
    }
  }

  private static final Duration LONG = Duration.ofSeconds(60);

  private final Map<String, List<String>> measured = new LinkedHashMap<>();
  private final List<LockBackend> setupInstances = new ArrayList<>();
  private CountedBackend counted;
  private LockBackend setup;

  /** The declared round trips per case. */
  protected abstract RoundTripBudget budget();

  /** The instance to measure, with its counters; called once per suite run. */
  protected abstract CountedBackend newCountedBackend();

  /** An uncounted instance over the same server, for the setup steps; called once. */
  protected abstract LockBackend newBackend();

  /**
   * First use of the counted instance, before any case. Default: every operation once on a
   * throw-away key (and the health probe, and one release wait, where the instance has them).
   * Override to add waiting for a subscription or listener, calling {@code super.warmUp}.
   */
  protected void warmUp(LockBackend b) {
    String k = key("warm-up");
    get(b.acquire(k, "w", "", LONG));
    get(b.extend(k, "w", LONG));
    get(b.replace(k, "w", "w2", "", LONG));
    get(b.read(k));
    get(b.release(k, "w2"));
    if (b instanceof BackendHealthProbe probe) {
      get(probe.checkHealth());
    }
    if (b instanceof ReleaseSignal signal) {
      signal.awaitRelease(k, LONG).complete(false);
    }
  }

  /** A lease short enough to wait out. Default 200 ms. */
  protected Duration shortLease() {
    return Duration.ofMillis(200);
  }

  /**
   * How long after a {@link #shortLease()} grant its lease is surely over on the server's clock
   * (measured with a real wait: reads would change what the expired cases find). Default 500 ms.
   */
  protected Duration expiryWait() {
    return Duration.ofMillis(500);
  }

  /** Where to write the measured table as Markdown; default: nowhere (it is printed either way). */
  protected Optional<Path> tableFile() {
    return Optional.empty();
  }

  /** The wait for one call, scaled by {@link TestTiming}. Default 10 s. */
  protected Duration callTimeout() {
    return Duration.ofSeconds(10);
  }

  @BeforeAll
  final void startCountedBackend() {
    counted = newCountedBackend();
    setup = newBackend();
    assertThat(setup).as("newBackend()").isNotNull().isNotSameAs(counted.backend());
    setupInstances.add(setup);
    warmUp(counted.backend());
  }

  @AfterAll
  final void stopCountedBackend() throws Exception {
    try {
      StringBuilder md = new StringBuilder("| case | round trips | sent |\n|---|---|---|\n");
      measured.forEach(
          (name, trips) ->
              md.append("| ")
                  .append(name)
                  .append(" | ")
                  .append(trips.size())
                  .append(" | ")
                  .append(String.join(", ", trips))
                  .append(" |\n"));
      System.out.print("[round trips] " + getClass().getSimpleName() + "\n" + md);
      Optional<Path> file = tableFile();
      if (file.isPresent()) {
        Path parent = file.get().toAbsolutePath().getParent();
        if (parent != null) {
          Files.createDirectories(parent);
        }
        Files.writeString(file.get(), md.toString(), StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot write the round-trip table", e);
    } finally {
      for (LockBackend b : setupInstances) {
        if (b instanceof AutoCloseable c) {
          c.close();
        }
      }
      if (counted != null) {
        counted.onClose().close();
      }
    }
  }

  // ---------------------------------------------------------------- helpers

  /** The instance under measurement. */
  protected final LockBackend counted() {
    return counted.backend();
  }

  /** The uncounted instance for setup steps. */
  protected final LockBackend setup() {
    return setup;
  }

  /** A key unique to this call. */
  protected static String key(String label) {
    return "hl-rt:" + UUID.randomUUID() + ":" + label;
  }

  /** The value of {@code f} within {@link #callTimeout()}. */
  protected final <T> T get(CompletableFuture<T> f) {
    return TestTiming.get(f, callTimeout());
  }

  /**
   * Runs {@code action} with fresh counts and asserts that every counter saw exactly {@code
   * expected} round trips; the row goes into the table under {@code name}. For backend-specific
   * cases of a subclass.
   *
   * @return what the first counter saw
   */
  protected final List<String> assertRoundTrips(String name, int expected, Runnable action) {
    counted.counters().forEach(RoundTripCounter::reset);
    action.run();
    List<String> first = null;
    for (RoundTripCounter c : counted.counters()) {
      List<String> trips = c.roundTrips();
      if (first == null) {
        first = trips;
        measured.put(name, trips);
      }
      assertThat(trips)
          .as("%s: round trips counted by %s (declared %d)", name, c.name(), expected)
          .hasSize(expected);
    }
    return first;
  }

  private <T> T measure(Case c, Supplier<CompletableFuture<T>> op) {
    List<T> result = new ArrayList<>(1);
    assertRoundTrips(c.label(), budget().of(c), () -> result.add(get(op.get())));
    return result.get(0);
  }

  // ---------------------------------------------------------------- tests

  @Test
  void acquire() {
    LockBackend b = counted();
    String free = key("free");
    assertThat(measure(Case.ACQUIRE_FREE, () -> b.acquire(free, "a", "d", LONG)).granted())
        .isTrue();

    String mine = key("mine");
    get(setup.acquire(mine, "a", "d", LONG));
    assertThat(measure(Case.ACQUIRE_SAME_OWNER, () -> b.acquire(mine, "a", "d", LONG)).granted())
        .isTrue();

    String held = key("held");
    get(setup.acquire(held, "h", "d", LONG));
    assertThat(measure(Case.ACQUIRE_HELD, () -> b.acquire(held, "b", "d", LONG)).granted())
        .isFalse();
  }

  @Test
  void acquireAndReadAfterExpiry() {
    LockBackend b = counted();
    String taken = key("taken-over");
    String read = key("read");
    get(setup.acquire(taken, "dead", "d", shortLease()));
    get(setup.acquire(read, "dead", "d", shortLease()));
    TestTiming.pass(expiryWait());
    assertThat(measure(Case.ACQUIRE_EXPIRED, () -> b.acquire(taken, "b", "d", LONG)).granted())
        .isTrue();
    assertThat(measure(Case.READ_EXPIRED, () -> b.read(read))).isEmpty();
  }

  @Test
  void extend() {
    LockBackend b = counted();
    String k = key("extend");
    get(setup.acquire(k, "a", "d", LONG));
    assertThat(measure(Case.EXTEND, () -> b.extend(k, "a", LONG)).extended()).isTrue();
    assertThat(measure(Case.EXTEND_NOT_OWNER, () -> b.extend(k, "b", LONG)).extended()).isFalse();
    String absent = key("absent");
    assertThat(measure(Case.EXTEND_ABSENT, () -> b.extend(absent, "a", LONG)).extended()).isFalse();
  }

  @Test
  void release() {
    LockBackend b = counted();
    String k = key("release");
    get(setup.acquire(k, "a", "d", LONG));
    assertThat(measure(Case.RELEASE_NOT_OWNER, () -> b.release(k, "b")).released()).isFalse();
    assertThat(measure(Case.RELEASE, () -> b.release(k, "a")).released()).isTrue();
    String absent = key("absent");
    assertThat(measure(Case.RELEASE_ABSENT, () -> b.release(absent, "a")).released()).isFalse();
  }

  @Test
  void replace() {
    LockBackend b = counted();
    String k = key("replace");
    get(setup.acquire(k, "a", "d", LONG));
    assertThat(measure(Case.REPLACE_MISMATCH, () -> b.replace(k, "x", "b", "e", LONG)).replaced())
        .isFalse();
    assertThat(measure(Case.REPLACE, () -> b.replace(k, "a", "b", "e", LONG)).replaced()).isTrue();
    String absent = key("absent");
    assertThat(
            measure(Case.REPLACE_ABSENT, () -> b.replace(absent, "a", "b", "e", LONG)).replaced())
        .isFalse();
  }

  @Test
  void read() {
    LockBackend b = counted();
    String k = key("read");
    assertThat(measure(Case.READ_ABSENT, () -> b.read(k))).isEmpty();
    get(setup.acquire(k, "a", "d", LONG));
    assertThat(measure(Case.READ_LIVE, () -> b.read(k))).isPresent();
  }

  @Test
  void healthProbeWhereTheBackendHasOne() {
    if (counted() instanceof BackendHealthProbe probe) {
      assertThat(measure(Case.HEALTH_PROBE, probe::checkHealth).healthy()).isTrue();
    } else {
      assertThat(counted()).isNotInstanceOf(BackendHealthProbe.class);
    }
  }

  @Test
  void releaseWaitsWhereTheBackendHasThem() {
    if (counted() instanceof ReleaseSignal signal) {
      String k = key("waits");
      get(setup.acquire(k, "a", "d", LONG));
      assertRoundTrips(
          Case.AWAIT_RELEASE.label(),
          budget().of(Case.AWAIT_RELEASE),
          () -> {
            List<CompletableFuture<Boolean>> waits = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
              waits.add(signal.awaitRelease(i % 2 == 0 ? k : key("w"), LONG));
            }
            for (int i = 0; i < waits.size(); i++) {
              if (i % 2 == 0) {
                waits.get(i).cancel(false);
              } else {
                waits.get(i).complete(false);
              }
            }
          });
    } else {
      assertThat(counted()).isNotInstanceOf(ReleaseSignal.class);
    }
  }
}
