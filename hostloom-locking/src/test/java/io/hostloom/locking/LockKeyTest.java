package io.hostloom.locking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** Contract B (8–13): key validation, prefixing, sensitive keys. */
class LockKeyTest {
  private final KernelFixture fx = new KernelFixture();

  @Test
  void nullAndEmptyKeysFailBeforeAnyBackendCallInEveryMode() {
    for (DistributedLock lock : new DistributedLock[] {fx.lock(), fx.lock(b -> b.enabled(false))}) {
      assertThatThrownBy(() -> lock.tryAcquire(null)).isInstanceOf(NullPointerException.class);
      assertThatThrownBy(() -> lock.tryAcquire("")).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> lock.executeWithLock("", h -> 1))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> lock.acquireAsync("")).isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(fx.backend.calls()).isEmpty();
  }

  @Test
  void keyLengthLimit() {
    DistributedLock lock = fx.lock();
    assertThatThrownBy(() -> lock.tryAcquire("k".repeat(513)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(LockingOptions.KEY_MAX_KEY_LENGTH);
    lock.tryAcquire("k".repeat(512)).orElseThrow().close();
    DistributedLock short10 = fx.lock(b -> b.maxKeyLength(10));
    assertThatThrownBy(() -> short10.tryAcquire("k".repeat(11)))
        .isInstanceOf(IllegalArgumentException.class);
    short10.tryAcquire("k".repeat(10)).orElseThrow().close();
  }

  @Test
  void whitespaceAndControlCharactersAreRejectedPunctuationIsNot() {
    for (String bad : new String[] {"a b", "a\tb", "a\u00a0b", "a\nb", "a\u0001b", "a\u2003b"}) {
      assertThatThrownBy(() -> LockKey.validate(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(LockKey.validate("invoice:42/x.y-z_#")).isEqualTo("invoice:42/x.y-z_#");
  }

  @Test
  void backendSeesPrefixedKeyHandleReportsConsumerKey() {
    LockHandle h = fx.lock().tryAcquire("invoice:42").orElseThrow();
    assertThat(fx.backend.calls("acquire").get(0).key()).isEqualTo("test:lock:invoice:42");
    assertThat(h.key()).isEqualTo("invoice:42");
    h.close();
  }

  @Test
  void fromSensitiveIsTruncatedSha256Hex() throws Exception {
    byte[] d =
        MessageDigest.getInstance("SHA-256").digest("s3cret".getBytes(StandardCharsets.UTF_8));
    String expected = HexFormat.of().formatHex(d, 0, 16);
    assertThat(LockKey.fromSensitive("s3cret"))
        .isEqualTo(expected)
        .hasSize(32)
        .matches("[0-9a-f]{32}");
    assertThat(LockKey.fromSensitive("s3cret")).isEqualTo(LockKey.fromSensitive("s3cret"));
    assertThat(LockKey.fromSensitive("s3cret")).isNotEqualTo(LockKey.fromSensitive("s3cres"));
  }

  @Test
  void fromSensitiveWithKeyIsTruncatedHmac() throws Exception {
    byte[] key = "pepper".getBytes(StandardCharsets.UTF_8);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    String expected =
        HexFormat.of().formatHex(mac.doFinal("1234".getBytes(StandardCharsets.UTF_8)), 0, 16);
    String k = LockKey.fromSensitive("1234", key);
    assertThat(k).isEqualTo(expected);
    assertThat(LockKey.validate(k)).isEqualTo(k);
    assertThatThrownBy(() -> LockKey.fromSensitive("1234", new byte[0]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LockKey.fromSensitive(null, key))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void canPrefixKernelKeyIsTrueExactlyForStartsOfNamespaceLockKeys() {
    for (String p :
        new String[] {
          "", "a", "app-1", "wopix", "app:", "app:l", "app:lock", "app:lock:", "app:lock:x:y/"
        }) {
      assertThat(LockKey.canPrefixKernelKey(p)).as(p).isTrue();
    }
    for (String p :
        new String[] {
          "wopi:", "wopi:lock:", "App:", "app/", "app:wopi:", "app:locks", ":lock:", "app:lock:a b"
        }) {
      assertThat(LockKey.canPrefixKernelKey(p)).as(p).isFalse();
    }
  }
}
