package io.hostloom.wopihost;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The start-up banner gives a validator command a user can run: Microsoft's WOPI validator with the
 * host's WOPISrc, not a script outside the repository. With the demo door closed (the default) it
 * prints no token: logs are read by more people than the host's users. Without a users file the
 * start-up log warns, once, that every user may do everything.
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "hostloom.backend=memory",
      "wopi-host.token-secret=banner-secret-0123456789abcdef",
      "logging.level.io.hostloom.wopihost.StartupBanner=INFO"
    })
@ActiveProfiles("test")
class StartupBannerTest {
  @TempDir static Path docs;

  @DynamicPropertySource
  static void props(DynamicPropertyRegistry r) {
    r.add("wopi-host.docs-dir", () -> docs.toString());
  }

  @LocalServerPort int port;

  @Test
  void theBannerPrintsMicrosoftsValidatorWithThisHostsWopiSrcAndAToken(CapturedOutput output) {
    String wopiSrc = "http://localhost:" + port + "/wopi/files/validator.wopitest";
    assertThat(output.getOut())
        .contains("github.com/microsoft/wopi-validator-core")
        .containsPattern(
            "dotnet run --project src/WopiValidator/WopiValidator.csproj --framework net6.0 -- -w "
                + Pattern.quote(wopiSrc)
                + " -t <token> -l 0 -g Locks")
        .doesNotContain("wopi_lock_runner.py");
  }

  @Test
  void withTheDemoDoorClosedTheBannerHoldsNoToken(CapturedOutput output) {
    assertThat(output.getOut())
        .contains("token:        not printed: the demo door is closed")
        .doesNotContainPattern("[A-Za-z0-9_-]{20,}\\.[A-Za-z0-9_-]{40,}");
  }

  @Test
  void withoutAUsersFileStartUpWarnsOnceThatEveryUserMayDoEverything(CapturedOutput output) {
    String warning = "No wopi-host.users-file configured: every user a valid token names may";
    String all = output.getAll();
    assertThat(all).contains(warning);
    assertThat(all.indexOf(warning)).isEqualTo(all.lastIndexOf(warning)); // once
  }
}
