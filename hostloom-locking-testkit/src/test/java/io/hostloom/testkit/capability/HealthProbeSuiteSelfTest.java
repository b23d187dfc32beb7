package io.hostloom.testkit.capability;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.BackendHealthProbe;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.EchoServer;
import io.hostloom.testkit.ForwardingLockBackend;
import io.hostloom.testkit.SuiteFailures;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The health-probe suite has teeth: over probes with one planted defect each it fails, in the tests
 * that name the defect; the same probe without a defect passes ({@link #aCorrectProbe}). The
 * "server" is a real loopback echo server; the probe sends one byte and waits for it back.
 */
class HealthProbeSuiteSelfTest {
  static final EchoServer ECHO = new EchoServer();

  @AfterAll
  static void stopEcho() throws IOException {
    ECHO.close();
  }

  private static Set<String> failures(Class<?> suite) {
    return SuiteFailures.of(suite, 4);
  }

  @Test
  void aCorrectProbe() {
    assertThat(failures(Correct.class)).isEmpty();
  }

  @Test
  void catchesAProbeThatIsAlwaysHealthy() {
    assertThat(failures(AlwaysHealthy.class))
        .containsExactly(
            "unhealthyWhenNothingListensAndSaysUnavailable",
            "unhealthyWhileTheServerIsGoneAndHealthyAgainWhenItIsBack",
            "unhealthyWithinTheBoundWhenTheServerStopsAnswering");
  }

  @Test
  void catchesAProbeThatFailsInsteadOfAnswering() {
    assertThat(failures(FailsWhenDown.class))
        .contains(
            "unhealthyWhenNothingListensAndSaysUnavailable",
            "unhealthyWhileTheServerIsGoneAndHealthyAgainWhenItIsBack")
        .doesNotContain("healthyWhileTheServerAnswers");
  }

  @Test
  void catchesAProbeWithoutATimeout() {
    assertThat(failures(NoTimeout.class))
        .containsExactly("unhealthyWithinTheBoundWhenTheServerStopsAnswering");
  }

  @Test
  void catchesADescriptionThatNamesTheEndpoint() {
    assertThat(failures(NamesTheEndpoint.class))
        .contains("healthyWhileTheServerAnswers", "unhealthyWhenNothingListensAndSaysUnavailable");
  }

  @Test
  void catchesADescriptionThatLeaksASecret() {
    assertThat(failures(LeaksTheSecret.class)).contains("healthyWhileTheServerAnswers");
  }

  // ------------------------------------------------------------ the probe and its defects

  enum Defect {
    NONE,
    ALWAYS_HEALTHY,
    FAILS_WHEN_DOWN,
    NO_TIMEOUT,
    NAMES_THE_ENDPOINT,
    LEAKS_THE_SECRET
  }

  /** An in-memory backend whose probe is one byte echoed by the server at {@code address}. */
  static final class EchoProbed extends ForwardingLockBackend
      implements BackendHealthProbe, AutoCloseable {
    private static final int TIMEOUT_MS = 500;
    private final InetSocketAddress address;
    private final Defect defect;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();

    EchoProbed(InetSocketAddress address, Defect defect) {
      super(new InMemoryLockBackend());
      this.address = address;
      this.defect = defect;
    }

    @Override
    public CompletableFuture<BackendHealth> checkHealth() {
      return CompletableFuture.supplyAsync(this::probe);
    }

    private BackendHealth probe() {
      String where = defect == Defect.NAMES_THE_ENDPOINT ? " at " + address : "";
      String secret = defect == Defect.LEAKS_THE_SECRET ? " (password s3cret)" : "";
      try (Socket s = new Socket()) {
        open.add(s);
        s.connect(address, TIMEOUT_MS);
        s.setSoTimeout(defect == Defect.NO_TIMEOUT ? 0 : TIMEOUT_MS);
        s.getOutputStream().write(42);
        InputStream in = s.getInputStream();
        if (in.read() != 42) {
          throw new IOException("no echo");
        }
        return BackendHealth.healthy("echo reachable" + where + secret);
      } catch (SocketTimeoutException e) {
        return down("TIMEOUT" + where, e);
      } catch (IOException e) {
        return down("UNAVAILABLE: " + e.getClass().getSimpleName() + where, e);
      }
    }

    private BackendHealth down(String description, IOException e) {
      if (defect == Defect.ALWAYS_HEALTHY) {
        return BackendHealth.healthy("echo reachable");
      }
      if (defect == Defect.FAILS_WHEN_DOWN) {
        throw new IllegalStateException(e);
      }
      return BackendHealth.unhealthy("echo " + description);
    }

    @Override
    public void close() throws IOException {
      for (Socket s : open) {
        s.close();
      }
    }
  }

  abstract static class BrokenSuite extends HealthProbeSuite {
    abstract Defect defect();

    @Override
    protected InetSocketAddress serverAddress() {
      return ECHO.address();
    }

    @Override
    protected LockBackend newBackend(InetSocketAddress address) {
      return new EchoProbed(address, defect());
    }

    @Override
    protected List<String> secrets() {
      return List.of("s3cret");
    }

    @Override
    protected Duration probeBound() {
      return Duration.ofSeconds(3);
    }

    @Override
    protected Duration recoveryBound() {
      return Duration.ofSeconds(5);
    }
  }

  static class Correct extends BrokenSuite {
    @Override
    Defect defect() {
      return Defect.NONE;
    }
  }

  static class AlwaysHealthy extends BrokenSuite {
    @Override
    Defect defect() {
      return Defect.ALWAYS_HEALTHY;
    }
  }

  static class FailsWhenDown extends BrokenSuite {
    @Override
    Defect defect() {
      return Defect.FAILS_WHEN_DOWN;
    }
  }

  static class NoTimeout extends BrokenSuite {
    @Override
    Defect defect() {
      return Defect.NO_TIMEOUT;
    }
  }

  static class NamesTheEndpoint extends BrokenSuite {
    @Override
    Defect defect() {
      return Defect.NAMES_THE_ENDPOINT;
    }
  }

  static class LeaksTheSecret extends BrokenSuite {
    @Override
    Defect defect() {
      return Defect.LEAKS_THE_SECRET;
    }
  }
}
