package io.hostloom.testkit.capability;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.BackendWarmUp;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.testkit.Closing;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.server.ServerProcess;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The {@link BackendWarmUp} capability as one JUnit 5 suite, against a real server: a warm-up of a
 * fresh instance completes within {@link #warmUpBound()}, the instance then works, and a second
 * warm-up completes too; a warm-up of an instance whose server is not there fails with a {@link
 * LockBackendException} of kind {@code UNAVAILABLE} or {@code TIMEOUT} within the bound (never
 * hangs, never another exception) and changes nothing, so a later warm-up fails the same way; a
 * closed instance answers {@code UNAVAILABLE}.
 *
 * <pre>{@code
 * class RedisWarmUpTest extends WarmUpSuite {
 *   @Override protected InetSocketAddress serverAddress() { return ...; }
 *   @Override protected LockBackend newBackend(InetSocketAddress at) {
 *     return RedisLockBackend.builder().uri("redis://" + at.getHostString() + ":" + at.getPort())
 *         .commandTimeout(Duration.ofSeconds(2)).build();
 *   }
 * }
 * }</pre>
 *
 * What a warm-up prepares (scripts, subscriptions, tables) is backend-specific and stays in the
 * backend's own tests.
 */
public abstract class WarmUpSuite {
  private static final Duration LEASE = Duration.ofSeconds(30);

  private final List<LockBackend> instances = new ArrayList<>();

  /** Where the shared real server listens. */
  protected abstract InetSocketAddress serverAddress();

  /**
   * A new instance of the backend under test that reaches its server at {@code address} (the real
   * server, or a port nobody listens on); it must implement {@link BackendWarmUp}, and its calls
   * must give up well within {@link #warmUpBound()}.
   */
  protected abstract LockBackend newBackend(InetSocketAddress address);

  /** The longest a warm-up may take, either way; scaled by {@link TestTiming}. Default 30 s. */
  protected Duration warmUpBound() {
    return Duration.ofSeconds(30);
  }

  /** Closes an instance after each test. Default: closes it if {@link AutoCloseable}. */
  protected void closeBackend(LockBackend instance) throws Exception {
    Closing.ifCloseable(instance);
  }

  @AfterEach
  final void closeWarmUpBackends() throws Exception {
    Closing.all(instances, this::closeBackend);
  }

  private LockBackend instance(InetSocketAddress address) {
    LockBackend b = newBackend(address);
    assertThat(b).as("newBackend()").isInstanceOf(BackendWarmUp.class);
    instances.add(b);
    return b;
  }

  /** A loopback address nothing listens on ({@link ServerProcess#freePort()}). */
  protected static InetSocketAddress closedAddress() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), ServerProcess.freePort());
  }

  private CompletableFuture<Void> warmUp(LockBackend b) {
    return ((BackendWarmUp) b).warmUp();
  }

  /** The failure of a warm-up that must fail: a LockBackendException, within the bound. */
  private LockBackendException failureOf(LockBackend b) {
    CompletableFuture<Throwable> failure = warmUp(b).handle((v, e) -> e);
    Throwable t = TestTiming.get(failure, warmUpBound());
    assertThat(t).as("warm-up of an instance whose server is not there").isNotNull();
    Throwable cause = t instanceof CompletionException c && c.getCause() != null ? c.getCause() : t;
    assertThat(cause).isInstanceOf(LockBackendException.class);
    return (LockBackendException) cause;
  }

  @Test
  void aWarmUpOfAFreshInstanceCompletesAndTheInstanceWorks() {
    LockBackend b = instance(serverAddress());
    TestTiming.get(warmUp(b), warmUpBound());
    String key = "hl-warm-up:" + UUID.randomUUID();
    assertThat(TestTiming.get(b.acquire(key, "o", "", LEASE), warmUpBound()).granted()).isTrue();
    assertThat(TestTiming.get(b.release(key, "o"), warmUpBound()).released()).isTrue();
    TestTiming.get(warmUp(b), warmUpBound()); // again, once warm
  }

  @Test
  void aWarmUpWithNoServerFailsUnavailableOrTimeoutAndChangesNothing() {
    LockBackend b = instance(closedAddress());
    assertThat(failureOf(b).kind()).isIn(LockFailureKind.UNAVAILABLE, LockFailureKind.TIMEOUT);
    assertThat(failureOf(b).kind())
        .as("a later warm-up tries again")
        .isIn(LockFailureKind.UNAVAILABLE, LockFailureKind.TIMEOUT);
  }

  @Test
  void aClosedInstanceAnswersUnavailable() throws Exception {
    LockBackend b = instance(serverAddress());
    if (!(b instanceof AutoCloseable)) {
      return; // nothing to close: the backend owns no connection
    }
    closeBackend(b);
    assertThat(failureOf(b).kind()).isEqualTo(LockFailureKind.UNAVAILABLE);
  }
}
