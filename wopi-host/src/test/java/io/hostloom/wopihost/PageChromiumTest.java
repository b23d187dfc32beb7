package io.hostloom.wopihost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.hostloom.wopihost.security.AccessTokens;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The page at {@code /}, rendered by headless Chromium (Debian's {@code chromium} package, or the
 * binary named by the system property {@code hostloom.chromium}): after its script has fetched the
 * lock states, the DOM shows every file and the lock on the locked one. Fails, with how to install
 * Chromium, when it is missing.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "hostloom.backend=memory",
      "wopi-host.token-secret=page-secret-0123456789",
      "wopi-host.demo-tokens=true" // the page shows lock ids to loopback browsers only then
    })
@ActiveProfiles("test")
class PageChromiumTest {
  @TempDir static Path docs;
  @TempDir Path profile;

  @DynamicPropertySource
  static void props(DynamicPropertyRegistry r) {
    r.add("wopi-host.docs-dir", () -> docs.toString());
  }

  @LocalServerPort int port;
  @Autowired AccessTokens tokens;

  @Test
  void thePageListsTheFilesWithTheirLockState() throws Exception {
    String token = tokens.issue("alice", "welcome.docx", Duration.ofHours(1));
    WopiHttp wopi = new WopiHttp("http://127.0.0.1:" + port);
    assertThat(wopi.lock("welcome.docx", token, "lock-from-the-page-test").status()).isEqualTo(200);

    Path screenshot = Path.of("target", "page-test.png").toAbsolutePath();
    String dom = chromium(profile, screenshot, "http://127.0.0.1:" + port + "/");

    assertThat(dom)
        .contains("HostLoom WOPI host")
        .contains("validator.wopitest")
        .contains("readme.txt")
        .contains("lock-from-the-page-test")
        .contains("lock backend: in-memory")
        .contains("1 of 3 locked");
    assertThat(dom.split("badge locked", -1)).hasSize(2); // exactly one locked row
    assertThat(dom.split("badge free", -1)).hasSize(3);
    assertThat(Files.size(screenshot)).isPositive();
  }

  /** Runs headless Chromium on {@code url}; returns the DOM after the scripts ran. */
  static String chromium(Path profile, Path screenshot, String url)
      throws IOException, InterruptedException {
    String binary = System.getProperty("hostloom.chromium", "/usr/bin/chromium");
    if (!Files.isExecutable(Path.of(binary))) {
      fail(
          "Chromium not found at "
              + binary
              + ": install it with `apt-get install chromium` (or run scripts/setup.sh), or point"
              + " -Dhostloom.chromium at a Chromium binary");
    }
    List<String> cmd =
        new ArrayList<>(
            List.of(
                binary,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--user-data-dir=" + profile,
                "--window-size=1200,500",
                "--virtual-time-budget=4000",
                "--screenshot=" + screenshot,
                "--dump-dom",
                url));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail("Chromium did not finish within 120 s");
    }
    assertThat(p.exitValue()).as("chromium exit code").isZero();
    return new String(out, StandardCharsets.UTF_8);
  }
}
