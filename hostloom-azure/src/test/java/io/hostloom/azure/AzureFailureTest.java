package io.hostloom.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpHeaders;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.testkit.TestTiming;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * How failures are reported: the kind says whether a command can have been applied, every call is
 * bounded, and the health probe never throws.
 */
class AzureFailureTest {
  private static final Duration LEASE = Duration.ofSeconds(30);

  private static LockBackendException failure(CompletableFuture<?> f) {
    try {
      TestTiming.get(f, Duration.ofSeconds(10));
    } catch (TestTiming.CompletionFailure e) {
      assertThat(e.getCause()).isInstanceOf(LockBackendException.class);
      return (LockBackendException) e.getCause();
    }
    throw new AssertionError("the call succeeded");
  }

  private static AzureBlobLockBackend backendAt(int port, Duration timeout) {
    return AzureBlobLockBackend.builder()
        .connectionString(Azurite.connectionStringAt("127.0.0.1", port))
        .commandTimeout(timeout)
        .healthTimeout(timeout)
        .build();
  }

  @Test
  void nobodyListeningIsUnavailable() {
    AzureBlobLockBackend b = backendAt(Azurite.freePort(), Duration.ofSeconds(5));

    LockBackendException acquire = failure(b.acquire("k", "o", "", LEASE));
    LockBackendException read = failure(b.read("k"));

    assertThat(acquire.kind()).isEqualTo(LockFailureKind.UNAVAILABLE);
    assertThat(acquire.getMessage()).contains("acquire").contains("UNAVAILABLE");
    assertThat(read.kind()).isEqualTo(LockFailureKind.UNAVAILABLE);
    // the probe's answer to the same: AzureHealthProbeTest
  }

  @Test
  void aServerThatNeverAnswersIsATimeoutWithinTheCommandTimeout() throws Exception {
    try (BlackHole hole = new BlackHole()) {
      AzureBlobLockBackend b = backendAt(hole.port(), Duration.ofMillis(500));
      long start = System.nanoTime();

      LockBackendException e = failure(b.acquire("k", "o", "", LEASE));

      assertThat(e.kind()).isEqualTo(LockFailureKind.TIMEOUT);
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .isLessThan(TestTiming.scaled(Duration.ofSeconds(5)));
      BackendHealth health = TestTiming.get(b.checkHealth(), Duration.ofSeconds(10));
      assertThat(health.healthy()).isFalse();
      assertThat(health.description()).contains("TIMEOUT");
    }
  }

  @Test
  void aRejectedRequestIsOther() {
    AzureBlobLockBackend wrongKey =
        AzureBlobLockBackend.builder()
            .connectionString(
                Azurite.shared()
                    .connectionString()
                    .replace(Azurite.KEY, "d3Jvbmcga2V5IGZvciB0aGUgdGVzdA=="))
            .build();

    LockBackendException e = failure(wrongKey.read("k"));

    assertThat(e.kind()).isEqualTo(LockFailureKind.OTHER);
    assertThat(e.getMessage()).contains("HTTP 403");
  }

  @Test
  void aContainerDeletedWhileRunningIsCreatedAgainByTheNextOperation() {
    String name = "deleted-" + java.util.UUID.randomUUID().toString().substring(0, 8);
    AzureBlobLockBackend b = Azurite.shared().backend(name).build();
    assertThat(TestTiming.get(b.acquire("k1", "o", "", LEASE), Duration.ofSeconds(10)).granted())
        .isTrue();
    Azurite.shared().rawClient().getBlobContainerClient(name).delete();

    LockBackendException e = failure(b.acquire("k2", "o", "", LEASE));

    assertThat(e.kind()).isEqualTo(LockFailureKind.OTHER);
    assertThat(e.getMessage()).contains("404");
    assertThat(TestTiming.get(b.acquire("k2", "o", "", LEASE), Duration.ofSeconds(10)).granted())
        .isTrue();
  }

  @Test
  void kindsFollowWhetherTheCommandCanHaveBeenApplied() {
    ConnectException refused = new ConnectException("Connection refused");
    assertThat(AzureFailures.toBackendException("acquire", refused, false).kind())
        .isEqualTo(LockFailureKind.UNAVAILABLE);
    assertThat(AzureFailures.toBackendException("acquire", refused, true).kind())
        .as("refused after the claim was written")
        .isEqualTo(LockFailureKind.OTHER);
    assertThat(
            AzureFailures.toBackendException("extend", new TimeoutException("deadline"), false)
                .kind())
        .isEqualTo(LockFailureKind.TIMEOUT);
    assertThat(
            AzureFailures.toBackendException(
                    "read", new RuntimeException(new java.net.SocketTimeoutException()), false)
                .kind())
        .isEqualTo(LockFailureKind.TIMEOUT);
    assertThat(
            AzureFailures.toBackendException("read", new IllegalStateException("boom"), false)
                .kind())
        .isEqualTo(LockFailureKind.OTHER);
  }

  /**
   * Every decision rests on pairing a response (an ETag, the 2xx of a conditional write) with its
   * request; the storage SDK's response validation refuses a response echoing another request's
   * {@code x-ms-client-request-id}, and the backend reports it as OTHER.
   */
  @Test
  void aResponseThatAnswersAnotherRequestIsRefused() {
    HttpClient mixedUp =
        request -> {
          HttpHeaders headers =
              new HttpHeaders()
                  .set(HttpHeaderName.fromString("x-ms-client-request-id"), "someone-else")
                  .set(HttpHeaderName.DATE, "Mon, 30 Nov 2026 11:00:00 GMT");
          return Mono.just(new CannedResponse(request, 201, headers));
        };
    AzureBlobLockBackend b = Azurite.shared().backend("mixed-up").httpClient(mixedUp).build();

    LockBackendException e = failure(b.read("k"));

    assertThat(e.kind()).isEqualTo(LockFailureKind.OTHER);
    assertThat(e.getMessage()).contains("x-ms-client-request-id");
  }

  /** A response with headers only. */
  private static final class CannedResponse extends HttpResponse {
    private final int status;
    private final HttpHeaders headers;

    CannedResponse(HttpRequest request, int status, HttpHeaders headers) {
      super(request);
      this.status = status;
      this.headers = headers;
    }

    @Override
    public int getStatusCode() {
      return status;
    }

    @Override
    @Deprecated
    public String getHeaderValue(String name) {
      return headers.getValue(HttpHeaderName.fromString(name));
    }

    @Override
    public HttpHeaders getHeaders() {
      return headers;
    }

    @Override
    public Flux<ByteBuffer> getBody() {
      return Flux.empty();
    }

    @Override
    public Mono<byte[]> getBodyAsByteArray() {
      return Mono.just(new byte[0]);
    }

    @Override
    public Mono<String> getBodyAsString() {
      return Mono.just("");
    }

    @Override
    public Mono<String> getBodyAsString(Charset charset) {
      return Mono.just("");
    }
  }

  /** Accepts connections and never answers. */
  private static final class BlackHole implements AutoCloseable {
    private final ServerSocket server;
    private final List<Socket> accepted = new ArrayList<>();
    private final Thread acceptor;

    BlackHole() throws IOException {
      server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      acceptor =
          new Thread(
              () -> {
                try {
                  while (true) {
                    Socket s = server.accept();
                    synchronized (accepted) {
                      accepted.add(s);
                    }
                  }
                } catch (IOException closed) {
                  // done
                }
              },
              "black-hole");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    int port() {
      return server.getLocalPort();
    }

    @Override
    public void close() throws IOException {
      server.close();
      synchronized (accepted) {
        for (Socket s : accepted) {
          s.close();
        }
      }
    }
  }
}
