package io.hostloom.wopihost;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.wopihost.WopiHttp.Reply;
import io.hostloom.wopihost.security.AccessTokens;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Access tokens over real HTTP: a deleted file's tokens (its FileUrl's too) stop working, also when
 * a new file takes its id; one token has one spelling; a correctly signed token whose fields are
 * out of shape is a 4xx, never a 500; the FileUrl is a download of its own, its token opens nothing
 * else.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"hostloom.backend=memory", "wopi-host.token-secret=" + TokensE2ETest.SECRET})
@ActiveProfiles("test")
class TokensE2ETest {
  static final String SECRET = "tokens-secret-0123456789";
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

  @TempDir static Path docs;

  @DynamicPropertySource
  static void props(DynamicPropertyRegistry r) {
    r.add("wopi-host.docs-dir", () -> docs.toString());
  }

  @LocalServerPort int port;
  @Autowired AccessTokens tokens;
  WopiHttp wopi;
  String file;
  String token;

  @BeforeEach
  void newFile() throws IOException {
    wopi = new WopiHttp("http://127.0.0.1:" + port);
    file = "doc-" + UUID.randomUUID() + ".docx";
    Files.writeString(docs.resolve(file), "hello");
    token = tokens.issue("alice", file, Duration.ofHours(1));
  }

  @Test
  void aDeletedFilesTokensStopWorkingAlsoForANewFileOfTheSameId() throws IOException {
    String fileUrl = fileUrl(wopi.checkFileInfo(file, token));
    assertThat(WopiHttp.get(fileUrl, Map.of()).status()).isEqualTo(200);
    assertThat(wopi.delete(file, token).status()).isEqualTo(200);
    assertThat(wopi.checkFileInfo(file, token).status()).isEqualTo(404);
    Files.writeString(docs.resolve(file), "someone else's file");
    assertThat(wopi.checkFileInfo(file, token).status()).isEqualTo(404);
    assertThat(wopi.getFile(file, token).status()).isEqualTo(404);
    assertThat(WopiHttp.get(fileUrl, Map.of()).status()).isEqualTo(401);
    String fresh = tokens.issue("alice", file, Duration.ofHours(1));
    assertThat(wopi.getFile(file, fresh).text()).isEqualTo("someone else's file");
  }

  @Test
  void aTokenHasOneSpellingOnly() {
    assertThat(wopi.checkFileInfo(file, token).status()).isEqualTo(200);
    int dot = token.indexOf('.');
    String payload = token.substring(0, dot);
    String signature = token.substring(dot + 1);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    char last = signature.charAt(signature.length() - 1);
    // 32 signature bytes leave 2 unused bits in the last character: flip one, same bytes
    String strayBits =
        signature.substring(0, signature.length() - 1)
            + alphabet.charAt(alphabet.indexOf(last) ^ 1);
    assertThat(Base64.getUrlDecoder().decode(strayBits))
        .isEqualTo(Base64.getUrlDecoder().decode(signature));
    for (String variant :
        new String[] {
          payload + "." + strayBits,
          payload + "." + signature + "=",
          payload + "==." + signature,
          payload + "." + signature + " ",
        }) {
      assertThat(wopi.checkFileInfo(file, variant).status()).as(variant).isEqualTo(401);
    }
  }

  @Test
  void aSignedTokenWithFieldsOutOfShapeIsRefusedNot500() throws GeneralSecurityException {
    long expiry = Instant.now().plusSeconds(3600).getEpochSecond();
    String[] payloads = {
      "v2\n\n" + file + "\n0\n" + expiry, // empty user
      "v2\n alice\n" + file + "\n0\n" + expiry, // padded user
      "v2\nal\u0007ice\n" + file + "\n0\n" + expiry, // control character
      "v2\nalice\n" + file + "\n0\n99999999999999999", // beyond any Instant's seconds
      "v2\nalice\n" + file + "\n0\n9223372036854775807",
      "v2\nalice\n" + file + "\n0\n+" + expiry,
      "v2\nalice\n" + file + "\n0\n0" + expiry,
      "v2\nalice\n" + file + "\n0\n-1",
      "v2\nalice\n" + file + "\n0",
    };
    for (String payload : payloads) {
      Reply r = wopi.checkFileInfo(file, sign(payload));
      assertThat(r.status()).as(payload).isBetween(400, 499);
    }
  }

  @Test
  void theFileUrlIsADownloadOfItsOwnWhoseTokenOpensNothingElse() throws IOException {
    String fileUrl = fileUrl(wopi.checkFileInfo(file, token));
    assertThat(fileUrl).startsWith(wopi.base() + "/download/");
    Reply download = WopiHttp.get(fileUrl, Map.of());
    assertThat(download.status()).isEqualTo(200);
    assertThat(download.text()).isEqualTo("hello");
    assertThat(wopi.lock(file, token, "L").status()).isEqualTo(200);
    assertThat(wopi.putFile(file, token, "L", "v2".getBytes(StandardCharsets.UTF_8)).status())
        .isEqualTo(200);
    assertThat(WopiHttp.get(fileUrl, Map.of()).text()).isEqualTo("v2"); // not a snapshot
    String urlToken = ProofKeyE2ETest.tokenOf(fileUrl);
    assertThat(wopi.checkFileInfo(file, urlToken).status()).isEqualTo(401);
    assertThat(wopi.getFile(file, urlToken).status()).isEqualTo(401);
    String other = "other-" + UUID.randomUUID() + ".docx";
    Files.writeString(docs.resolve(other), "x");
    assertThat(
            WopiHttp.get(fileUrl.replace("/download/" + file, "/download/" + other), Map.of())
                .status())
        .isEqualTo(401);
    assertThat(WopiHttp.get(wopi.base() + "/download/" + file + "?access_token=" + token, Map.of()))
        .extracting(Reply::status)
        .isEqualTo(401); // the WOPI token is not a download token either
  }

  static String fileUrl(Reply checkFileInfo) {
    String text = checkFileInfo.text();
    int start = text.indexOf("\"FileUrl\":\"") + 11;
    return text.substring(start, text.indexOf('"', start));
  }

  private static String sign(String payload) throws GeneralSecurityException {
    byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return B64.encodeToString(bytes) + "." + B64.encodeToString(mac.doFinal(bytes));
  }
}
