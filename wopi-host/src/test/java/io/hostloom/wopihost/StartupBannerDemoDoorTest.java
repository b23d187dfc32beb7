package io.hostloom.wopihost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.wopihost.files.SampleDocuments;
import io.hostloom.wopihost.security.AccessTokens;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * With the demo door open the banner prints a token that works, and the door cannot be opened on a
 * host that has a public URL (it sits behind a proxy, where the door's loopback check proves
 * nothing).
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "hostloom.backend=memory",
      "wopi-host.token-secret=banner-secret-0123456789abcdef",
      "wopi-host.demo-tokens=true",
      "logging.level.io.hostloom.wopihost.StartupBanner=INFO"
    })
@ActiveProfiles("test")
class StartupBannerDemoDoorTest {
  @TempDir static Path docs;

  @DynamicPropertySource
  static void props(DynamicPropertyRegistry r) {
    r.add("wopi-host.docs-dir", () -> docs.toString());
  }

  @LocalServerPort int port;
  @Autowired AccessTokens tokens;

  @Test
  void withTheDemoDoorOpenTheBannerPrintsAWorkingToken(CapturedOutput output) {
    Matcher m =
        Pattern.compile("\n    token:        (\\S+)  \\(user 'demo'").matcher(output.getOut());
    assertThat(m.find()).as(output.getOut()).isTrue();
    assertThat(tokens.verify(m.group(1), SampleDocuments.VALIDATOR_FILE)).isPresent();
    assertThat(
            WopiHttp.get(
                    WopiHttp.url(
                        "http://127.0.0.1:" + port, SampleDocuments.VALIDATOR_FILE, "", m.group(1)),
                    java.util.Map.of())
                .status())
        .isEqualTo(200);
  }

  @Test
  void theDemoDoorIsRefusedWhenAPublicUrlIsSet() {
    SpringApplicationBuilder app =
        new SpringApplicationBuilder(WopiHostApplication.class)
            .profiles("test")
            .properties(
                "server.port=0",
                "hostloom.backend=memory",
                "wopi-host.docs-dir=" + docs.resolve("refused"),
                "wopi-host.demo-tokens=true",
                "wopi-host.public-url=https://wopi.example");
    assertThatThrownBy(app::run)
        .rootCause()
        .hasMessageContaining(
            "wopi-host.demo-tokens=true cannot be combined with wopi-host.public-url");
  }
}
