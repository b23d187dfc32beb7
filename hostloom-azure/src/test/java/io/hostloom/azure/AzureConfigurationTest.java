package io.hostloom.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import java.time.Duration;
import java.time.OffsetDateTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Mono;

/** Start-up errors of the builder; nothing here talks to a server. */
class AzureConfigurationTest {
  private static final TokenCredential CREDENTIAL =
      request -> Mono.just(new AccessToken("token", OffsetDateTime.now().plusHours(1)));

  @Test
  void neitherConnectionStringNorServiceUriIsAClearStartupError() {
    assertThatThrownBy(() -> AzureBlobLockBackend.builder().build())
        .isInstanceOf(AzureLockConfigurationException.class)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("connectionString")
        .hasMessageContaining("serviceUri")
        .hasMessageContaining("UseDevelopmentStorage=true");
  }

  @Test
  void bothConnectionStringAndServiceUriAreRejected() {
    assertThatThrownBy(
            () ->
                AzureBlobLockBackend.builder()
                    .connectionString("UseDevelopmentStorage=true")
                    .serviceUri("https://acct.blob.core.windows.net")
                    .build())
        .isInstanceOf(AzureLockConfigurationException.class)
        .hasMessageContaining("not both");
  }

  @Test
  void aCredentialWithAConnectionStringIsRejected() {
    assertThatThrownBy(
            () ->
                AzureBlobLockBackend.builder()
                    .connectionString("UseDevelopmentStorage=true")
                    .credential(CREDENTIAL)
                    .build())
        .isInstanceOf(AzureLockConfigurationException.class)
        .hasMessageContaining("serviceUri");
  }

  @Test
  void aMalformedConnectionStringIsRejectedWithoutEchoingIt() {
    assertThatThrownBy(
            () ->
                AzureBlobLockBackend.builder()
                    .connectionString("AccountName=acct;AccountKey=TopSecretKey123;Nonsense")
                    .build())
        .isInstanceOf(AzureLockConfigurationException.class)
        .hasMessageContaining("connection string")
        .hasMessageNotContaining("TopSecretKey123")
        .hasNoCause();
  }

  @Test
  void validConfigurationsBuildWithoutTalkingToAzure() {
    AzureBlobLockBackend dev =
        AzureBlobLockBackend.builder().connectionString("UseDevelopmentStorage=true").build();
    assertThat(dev.containerName()).isEqualTo("wopi-locks");
    assertThat(dev.wopiExpiry()).isEqualTo(Duration.ofMinutes(30));
    assertThat(dev.name()).isEqualTo("azure-blob");

    AzureBlobLockBackend withDefaultCredential =
        AzureBlobLockBackend.builder()
            .serviceUri("https://acct.blob.core.windows.net")
            .containerName("team-locks")
            .build();
    assertThat(withDefaultCredential.containerName()).isEqualTo("team-locks");

    AzureBlobLockBackend withCredential =
        AzureBlobLockBackend.builder()
            .serviceUri("https://acct.blob.core.windows.net/")
            .credential(CREDENTIAL)
            .build();
    assertThat(withCredential).isNotNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"ab", "Wopi-Locks", "wopi_locks", "a--b", "-abc", "abc-", ""})
  void invalidContainerNamesAreRejected(String name) {
    assertThatThrownBy(() -> AzureBlobLockBackend.builder().containerName(name))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("but was '" + name + "'");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "acct.blob.core.windows.net",
        "ftp://acct.blob.core.windows.net",
        "https://acct.blob.core.windows.net/?sv=2024&sig=SECRETSIG"
      })
  void invalidServiceUrisAreRejectedWithoutEchoingQueries(String uri) {
    assertThatThrownBy(() -> AzureBlobLockBackend.builder().serviceUri(uri))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("serviceUri must be an absolute http(s) URI")
        .hasMessageNotContaining("SECRETSIG");
  }

  @Test
  void durationsMustBePositive() {
    AzureBlobLockBackend.Builder b = AzureBlobLockBackend.builder();
    assertThatThrownBy(() -> b.commandTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("commandTimeout must be positive but was PT0S");
    assertThatThrownBy(() -> b.healthTimeout(Duration.ofSeconds(-1)))
        .hasMessage("healthTimeout must be positive but was PT-1S");
    assertThatThrownBy(() -> b.unleasedClaimGrace(Duration.ZERO))
        .hasMessageContaining("unleasedClaimGrace must be positive but was");
    assertThatThrownBy(() -> b.wopiExpiry(Duration.ZERO))
        .hasMessageContaining("wopiExpiry must be positive but was");
    assertThatThrownBy(() -> b.connectionString(" ")).isInstanceOf(IllegalArgumentException.class);
  }
}
