package io.hostloom.wopihost;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.wopihost.WopiHttp.Reply;
import io.hostloom.wopihost.security.AccessTokens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The WOPI containers and ecosystem over real HTTP: from a file to the ecosystem and the root
 * container, creating, listing, renaming and deleting folders and files in them, each decided by
 * the user's rights (a users file), and PutUserInfo. New file and folder names are refused when
 * they only look like taken ones ({@code NameCanonicalizer}).
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"hostloom.backend=memory", "wopi-host.token-secret=containers-secret-0123456"})
@ActiveProfiles("test")
class ContainersE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path docs;
  @TempDir static Path config;

  @DynamicPropertySource
  static void props(DynamicPropertyRegistry r) {
    r.add("wopi-host.docs-dir", () -> docs.toString());
    r.add(
        "wopi-host.users-file",
        () -> {
          try {
            return Files.writeString(
                    config.resolve("users.txt"), "grant alice root all\ngrant bob root read\n")
                .toString();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  @LocalServerPort int port;
  @Autowired AccessTokens tokens;
  WopiHttp wopi;
  String file;

  @BeforeEach
  void newFile() throws IOException {
    wopi = new WopiHttp("http://127.0.0.1:" + port);
    file = "doc-" + UUID.randomUUID() + ".docx";
    Files.writeString(docs.resolve(file), "hello");
  }

  @Test
  void checkFileInfoAnnouncesContainersEcosystemAndUserInfo() {
    String text = wopi.checkFileInfo(file, token("alice")).text();
    assertThat(text)
        .contains("\"SupportsContainers\":true", "\"SupportsEcosystem\":true")
        .contains("\"SupportsUserInfo\":true");
  }

  @Test
  void fromAFileToTheEcosystemAndTheRootContainer() {
    String base = WopiHttp.url(wopi.base(), file, "", token("alice"));
    JsonNode pointer = json(WopiHttp.get(insertPath(base, "/ecosystem_pointer"), Map.of()));
    String ecosystem = pointer.get("Url").asString();
    assertThat(ecosystem).contains("/wopi/ecosystem?access_token=");
    assertThat(json(WopiHttp.get(ecosystem, Map.of())).get("SupportsContainers").asBoolean())
        .isTrue();
    JsonNode root =
        json(WopiHttp.get(insertPath(ecosystem, "/root_container_pointer"), Map.of()))
            .get("ContainerPointer");
    assertThat(root.get("Url").asString()).contains("/wopi/containers/root?access_token=");
    JsonNode info = json(WopiHttp.get(root.get("Url").asString(), Map.of()));
    assertThat(info.get("Name").asString()).isNotEmpty();
    assertThat(info.get("UserCanCreateChildFile").asBoolean()).isTrue();
    assertThat(info.get("UserCanDelete").asBoolean()).isFalse(); // never the root
    JsonNode ancestors =
        json(WopiHttp.get(insertPath(base, "/ancestry"), Map.of())).get("AncestorsWithRootFirst");
    assertThat(ancestors).hasSize(1);
    assertThat(ancestors.get(0).get("Url").asString()).contains("/wopi/containers/root?");
    Reply forged = WopiHttp.get(insertPath(ecosystem, "/root_container_pointer") + "x", Map.of());
    assertThat(forged.status()).isEqualTo(401);
  }

  @Test
  void foldersAndFilesInThemCanBeCreatedListedRenamedAndDeleted() {
    String root = containerUrl("root", "alice");
    String name = "folder-" + UUID.randomUUID();
    Reply made = post(root, "CREATE_CHILD_CONTAINER", Map.of("X-WOPI-RelativeTarget", name));
    assertThat(made.status()).isEqualTo(200);
    String folder = json(made).get("ContainerPointer").get("Url").asString();
    assertThat(post(root, "CREATE_CHILD_CONTAINER", Map.of("X-WOPI-RelativeTarget", name)).status())
        .isEqualTo(409);
    String child = "child-" + UUID.randomUUID() + ".docx";
    Reply created = post(folder, "CREATE_CHILD_FILE", Map.of("X-WOPI-RelativeTarget", child));
    assertThat(created.status()).isEqualTo(200);
    JsonNode createdJson = json(created);
    assertThat(createdJson.get("Name").asString()).isEqualTo(child);
    assertThat(createdJson.get("HostEditUrl").asString()).startsWith("http");
    String childUrl = createdJson.get("Url").asString();
    assertThat(WopiHttp.get(childUrl, Map.of()).status()).isEqualTo(200);
    assertThat(post(folder, "CREATE_CHILD_FILE", Map.of("X-WOPI-RelativeTarget", child)).status())
        .isEqualTo(409);

    JsonNode children = json(WopiHttp.get(insertPath(folder, "/children"), Map.of()));
    assertThat(children.get("ChildFiles")).hasSize(1);
    assertThat(children.get("ChildFiles").get(0).get("Name").asString()).isEqualTo(child);
    JsonNode rootChildren = json(WopiHttp.get(insertPath(root, "/children"), Map.of()));
    assertThat(rootChildren.get("ChildContainers").toString()).contains(name);
    assertThat(rootChildren.get("ChildFiles").toString()).doesNotContain(child);
    JsonNode filtered =
        json(
            WopiHttp.get(
                insertPath(folder, "/children"),
                Map.of("X-WOPI-FileExtensionFilterList", ".xlsx,pptx")));
    assertThat(filtered.get("ChildFiles")).isEmpty();

    JsonNode ancestry =
        json(WopiHttp.get(insertPath(childUrl, "/ancestry"), Map.of()))
            .get("AncestorsWithRootFirst");
    assertThat(ancestry).hasSize(2);
    assertThat(ancestry.get(1).get("Name").asString()).isEqualTo(name);
    JsonNode folderAncestry =
        json(WopiHttp.get(insertPath(folder, "/ancestry"), Map.of())).get("AncestorsWithRootFirst");
    assertThat(folderAncestry).hasSize(1);

    Reply renamed = post(folder, "RENAME_CONTAINER", Map.of("X-WOPI-RequestedName", name + "-2"));
    assertThat(renamed.status()).isEqualTo(200);
    assertThat(json(WopiHttp.get(folder, Map.of())).get("Name").asString()).isEqualTo(name + "-2");
    assertThat(post(folder, "DELETE_CONTAINER", Map.of()).status()).isEqualTo(409); // not empty
    assertThat(WopiHttp.post(childUrl, Map.of("X-WOPI-Override", "DELETE"), new byte[0]).status())
        .isEqualTo(200);
    assertThat(post(folder, "DELETE_CONTAINER", Map.of()).status()).isEqualTo(200);
    assertThat(WopiHttp.get(folder, Map.of()).status()).isEqualTo(404);
  }

  @Test
  void namesThatOnlyLookLikeTakenOnesMakeNoNewFileOrFolder() {
    String root = containerUrl("root", "alice");
    String lookalike = file.replace("doc-", "d0c-"); // 0 for o: NameCanonicalizer's table
    Reply exact = post(root, "CREATE_CHILD_FILE", Map.of("X-WOPI-RelativeTarget", lookalike));
    assertThat(exact.status()).isEqualTo(409);
    assertThat(exact.header("X-WOPI-ValidRelativeTarget")).isPresent();
    assertThat(Files.exists(docs.resolve(lookalike))).isFalse();
    Reply suggested = post(root, "CREATE_CHILD_FILE", Map.of("X-WOPI-SuggestedTarget", lookalike));
    assertThat(json(suggested).get("Name").asString())
        .isEqualTo(lookalike.replace(".docx", " (1).docx"));

    String name = "mem-" + UUID.randomUUID();
    String similar = "rnem-" + name.substring(4); // rn for m
    assertThat(post(root, "CREATE_CHILD_CONTAINER", Map.of("X-WOPI-RelativeTarget", name)).status())
        .isEqualTo(200);
    assertThat(
            post(root, "CREATE_CHILD_CONTAINER", Map.of("X-WOPI-RelativeTarget", similar)).status())
        .isEqualTo(409);
    String other =
        json(post(
                root,
                "CREATE_CHILD_CONTAINER",
                Map.of("X-WOPI-RelativeTarget", "other-" + UUID.randomUUID())))
            .get("ContainerPointer")
            .get("Url")
            .asString();
    assertThat(post(other, "RENAME_CONTAINER", Map.of("X-WOPI-RequestedName", similar)).status())
        .isEqualTo(409);
  }

  @Test
  void aReaderMayListButNotCreateRenameOrDelete() {
    String root = containerUrl("root", "bob");
    assertThat(WopiHttp.get(insertPath(root, "/children"), Map.of()).status()).isEqualTo(200);
    assertThat(json(WopiHttp.get(root, Map.of())).get("UserCanCreateChildFile").asBoolean())
        .isFalse();
    assertThat(post(root, "CREATE_CHILD_FILE", Map.of("X-WOPI-RelativeTarget", "b.docx")).status())
        .isEqualTo(401);
    assertThat(post(root, "CREATE_CHILD_CONTAINER", Map.of("X-WOPI-RelativeTarget", "b")).status())
        .isEqualTo(401);
    assertThat(Files.exists(docs.resolve("b.docx"))).isFalse();
    String aliceFolder =
        json(post(
                containerUrl("root", "alice"),
                "CREATE_CHILD_CONTAINER",
                Map.of("X-WOPI-RelativeTarget", "f-" + UUID.randomUUID())))
            .get("ContainerPointer")
            .get("Url")
            .asString();
    String id =
        aliceFolder.substring(aliceFolder.indexOf("/containers/") + 12, aliceFolder.indexOf('?'));
    String bobFolder = containerUrl(id, "bob");
    assertThat(post(bobFolder, "DELETE_CONTAINER", Map.of()).status()).isEqualTo(401);
    assertThat(post(bobFolder, "RENAME_CONTAINER", Map.of("X-WOPI-RequestedName", "x")).status())
        .isEqualTo(401);
    assertThat(WopiHttp.get(aliceFolder, Map.of()).status()).isEqualTo(200);
    String fileToken = token("alice"); // a file's token does not open a folder
    assertThat(
            WopiHttp.get(wopi.base() + "/wopi/containers/root?access_token=" + fileToken, Map.of())
                .status())
        .isEqualTo(401);
  }

  @Test
  void putUserInfoIsReturnedByCheckFileInfoForThatUserOnly() {
    Reply put =
        WopiHttp.post(
            WopiHttp.url(wopi.base(), file, "", token("alice")),
            Map.of("X-WOPI-Override", "PUT_USER_INFO"),
            "alice's settings".getBytes(StandardCharsets.UTF_8));
    assertThat(put.status()).isEqualTo(200);
    assertThat(wopi.checkFileInfo(file, token("alice")).text())
        .contains("\"UserInfo\":\"alice's settings\"");
    assertThat(wopi.checkFileInfo(file, token("bob")).text()).doesNotContain("\"UserInfo\"");
    Reply tooLong =
        WopiHttp.post(
            WopiHttp.url(wopi.base(), file, "", token("alice")),
            Map.of("X-WOPI-Override", "PUT_USER_INFO"),
            "x".repeat(1025).getBytes(StandardCharsets.UTF_8));
    assertThat(tooLong.status()).isEqualTo(400);
  }

  private String token(String user) {
    return tokens.issue(user, file, Duration.ofHours(1));
  }

  private String containerUrl(String id, String user) {
    String t = tokens.issue(user, ":container:" + id, Duration.ofHours(1));
    return wopi.base()
        + "/wopi/containers/"
        + id
        + "?access_token="
        + java.net.URLEncoder.encode(t, StandardCharsets.UTF_8);
  }

  private static Reply post(String url, String override, Map<String, String> headers) {
    Map<String, String> h = new LinkedHashMap<>(headers);
    h.put("X-WOPI-Override", override);
    return WopiHttp.post(url, h, new byte[0]);
  }

  /** {@code url} with {@code suffix} appended to its path (before the query). */
  private static String insertPath(String url, String suffix) {
    int q = url.indexOf('?');
    return url.substring(0, q) + suffix + url.substring(q);
  }

  private static JsonNode json(Reply r) {
    assertThat(r.status()).as(r.text()).isEqualTo(200);
    return JSON.readTree(r.body());
  }
}
