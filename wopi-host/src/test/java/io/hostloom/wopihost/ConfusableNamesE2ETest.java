package io.hostloom.wopihost;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.wopihost.WopiHttp.Reply;
import io.hostloom.wopihost.security.AccessTokens;
import io.hostloom.wopihost.web.Utf7;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Names that only look like another file's (case, NFC/NFD, fullwidth forms, homoglyphs) are refused
 * by RenameFile and PutRelativeFile over real HTTP, so one file cannot pass for another.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"hostloom.backend=memory", "wopi-host.token-secret=names-secret-0123456789"})
@ActiveProfiles("test")
class ConfusableNamesE2ETest {
  static final String HELD = "names-lock";

  @TempDir static Path docs;

  @DynamicPropertySource
  static void props(DynamicPropertyRegistry r) {
    r.add("wopi-host.docs-dir", () -> docs.toString());
  }

  @LocalServerPort int port;
  @Autowired AccessTokens tokens;

  WopiHttp wopi;
  String tag;
  String file;
  String token;

  @BeforeEach
  void files() throws IOException {
    wopi = new WopiHttp("http://127.0.0.1:" + port);
    tag = UUID.randomUUID().toString().substring(0, 8);
    file = "mine-" + tag + ".docx";
    Files.writeString(docs.resolve(file), "mine");
    Files.writeString(docs.resolve("Report-" + tag + ".docx"), "the report");
    Files.writeString(docs.resolve("R\u00e9sum\u00e9-" + tag + ".docx"), "the resume"); // NFC
    token = tokens.issue("mallory", file, Duration.ofHours(1));
    assertThat(wopi.lock(file, token, HELD).status()).isEqualTo(200);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "R\u0435port-", // Cyrillic e
        "\uff32\uff45\uff50\uff4f\uff52\uff54-", // fullwidth
        "Rep0rt-", // zero
        "Re\u0301sume\u0301-", // NFD of an NFC name
        "RE\u0301SUME\u0301-" // and upper case
      })
  void renamingToANameThatLooksLikeAnotherFilesIsRefused(String stem) throws IOException {
    long before = fileCount();
    Reply r = wopi.rename(file, token, HELD, Utf7.encode(stem + tag));
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.header("X-WOPI-InvalidFileNameError"))
        .contains("Another file already has this name");
    assertThat(wopi.checkFileInfo(file, token).text())
        .contains("\"BaseFileName\":\"" + file + "\"");
    assertThat(fileCount()).isEqualTo(before);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"REPORT-", "R\u0435port-", "Re\u0301sume\u0301-"})
  void aRelativeTargetThatLooksLikeAnotherFileIsAConflictAndCreatesNothing(String stem)
      throws IOException {
    long before = fileCount();
    Reply r =
        wopi.putRelative(
            file,
            token,
            Map.of("X-WOPI-RelativeTarget", Utf7.encode(stem + tag + ".docx")),
            "x".getBytes(StandardCharsets.UTF_8));
    assertThat(r.status()).isEqualTo(409);
    String free = Utf7.decode(r.header("X-WOPI-ValidRelativeTarget").orElseThrow());
    assertThat(free).endsWith(" (1).docx");
    assertThat(fileCount()).isEqualTo(before);
    assertThat(Files.readString(docs.resolve("Report-" + tag + ".docx"))).isEqualTo("the report");
  }

  @Test
  void aSuggestedTargetThatLooksLikeAnotherFileGetsAFreeNumberedName() {
    Reply r =
        wopi.putRelative(
            file,
            token,
            Map.of("X-WOPI-SuggestedTarget", Utf7.encode("report-" + tag + ".docx")),
            "x".getBytes(StandardCharsets.UTF_8));
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.text()).contains("\"Name\":\"report-" + tag + " (1).docx\"");
  }

  @Test
  void differentNamesAndTheFilesOwnNameInAnotherCaseAreStillAccepted() {
    assertThat(wopi.rename(file, token, HELD, Utf7.encode("Quarterly-" + tag)).status())
        .isEqualTo(200);
    assertThat(wopi.rename(file, token, HELD, Utf7.encode("QUARTERLY-" + tag)).status())
        .isEqualTo(200);
    assertThat(wopi.rename(file, token, HELD, Utf7.encode("Resume-" + tag)).status())
        .isEqualTo(200); // no accent: another name than R\u00e9sum\u00e9
  }

  @Test
  void anNfdNameIsStoredInNfc() {
    Reply r = wopi.rename(file, token, HELD, Utf7.encode("Cafe\u0301-" + tag));
    assertThat(r.status()).isEqualTo(200);
    assertThat(wopi.checkFileInfo(file, token).text())
        .contains("\"BaseFileName\":\"Caf\u00e9-" + tag + ".docx\"");
  }

  static long fileCount() throws IOException {
    try (Stream<Path> list = Files.list(docs)) {
      return list.count();
    }
  }
}
