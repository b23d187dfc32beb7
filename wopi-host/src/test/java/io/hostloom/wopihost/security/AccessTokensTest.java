package io.hostloom.wopihost.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class AccessTokensTest {
  private static final byte[] SECRET = "0123456789abcdef0123".getBytes(StandardCharsets.UTF_8);
  private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");

  private static AccessTokens at(Instant now) {
    return new AccessTokens(SECRET, Clock.fixed(now, ZoneOffset.UTC));
  }

  @Test
  void aTokenIsBoundToItsUserAndFileUntilItsExpiry() {
    String token = at(NOW).issue("alice", "a.docx", Duration.ofMinutes(10));
    AccessTokens.Claims claims = at(NOW).verify(token, "a.docx").orElseThrow();
    assertThat(claims.user()).isEqualTo("alice");
    assertThat(claims.expiry()).isEqualTo(NOW.plus(Duration.ofMinutes(10)));
    assertThat(at(NOW).verify(token, "b.docx")).isEmpty();
    assertThat(at(NOW.plus(Duration.ofMinutes(10)).minusSeconds(1)).verify(token, "a.docx"))
        .isPresent();
    assertThat(at(NOW.plus(Duration.ofMinutes(10))).verify(token, "a.docx")).isEmpty();
  }

  @Test
  void tamperedForeignAndMalformedTokensAreRejected() {
    String token = at(NOW).issue("alice", "a.docx", Duration.ofMinutes(10));
    String forged = at(NOW).issue("mallory", "a.docx", Duration.ofMinutes(10));
    String mixed = forged.substring(0, forged.indexOf('.')) + token.substring(token.indexOf('.'));
    AccessTokens other =
        new AccessTokens(
            "another-secret-of-20b".getBytes(StandardCharsets.UTF_8),
            Clock.fixed(NOW, ZoneOffset.UTC));
    assertThat(at(NOW).verify(mixed, "a.docx")).isEmpty();
    assertThat(other.verify(token, "a.docx")).isEmpty();
    for (String bad : new String[] {"", ".", "a.b.c", "!!!.???", token + "x", "x" + token}) {
      assertThat(at(NOW).verify(bad, "a.docx")).as(bad).isEmpty();
    }
    assertThat(at(NOW).verify(null, "a.docx")).isEmpty();
  }

  @Test
  void tokensAreUrlSafe() {
    String token = at(NOW).issue("ålice with spaces", "naïve résumé.docx", Duration.ofHours(1));
    assertThat(token).matches("[A-Za-z0-9_.-]+");
    assertThat(at(NOW).verify(token, "naïve résumé.docx")).isPresent();
  }

  @Test
  void invalidArgumentsAreRejected() {
    assertThatThrownBy(() -> new AccessTokens(new byte[15], Clock.systemUTC()))
        .hasMessageContaining("at least 16 bytes but had 15");
    assertThatThrownBy(() -> at(NOW).issue("a\nb", "f", Duration.ofMinutes(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> at(NOW).issue("a", "f", Duration.ZERO))
        .hasMessageContaining("ttl must be positive but was PT0S");
  }

  @Test
  void aMintedTokenNeverOutlivesItsSource() {
    String source = at(NOW).issue("alice", "a.docx", Duration.ofMinutes(10));
    AccessTokens.Claims claims = at(NOW).verify(source, "a.docx").orElseThrow();
    Instant later = NOW.plus(Duration.ofMinutes(9));
    String minted = at(later).issueFrom(claims, "b.docx", Duration.ofHours(10));
    AccessTokens.Claims mintedClaims = at(later).verify(minted, "b.docx").orElseThrow();
    assertThat(mintedClaims.user()).isEqualTo("alice");
    assertThat(mintedClaims.expiry()).isEqualTo(claims.expiry());
    String shorter = at(NOW).issueFrom(claims, "a.docx", Duration.ofMinutes(1));
    assertThat(at(NOW).verify(shorter, "a.docx").orElseThrow().expiry())
        .isEqualTo(NOW.plus(Duration.ofMinutes(1)));
  }
}
