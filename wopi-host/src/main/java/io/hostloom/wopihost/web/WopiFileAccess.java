package io.hostloom.wopihost.web;

import io.hostloom.wopihost.WopiHostProperties;
import io.hostloom.wopihost.files.Document;
import io.hostloom.wopihost.files.Folders;
import io.hostloom.wopihost.files.TokenGenerations;
import io.hostloom.wopihost.security.AccessTokens;
import io.hostloom.wopihost.security.Permissions;
import io.hostloom.wopihost.security.TokenScopes;
import io.hostloom.wopihost.security.WopiAuthException;
import io.hostloom.wopihost.users.Right;
import io.hostloom.wopihost.users.UserInfoStore;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

/**
 * What the files endpoint asks about users, folders and tokens: the right each operation needs,
 * CheckFileInfo's user and feature fields, the answer that names a new file (its {@code Url},
 * {@code HostViewUrl}, {@code HostEditUrl}), PutUserInfo, and the bookkeeping of a created or
 * deleted file (its folder, its token generation).
 */
@Component
public class WopiFileAccess {
  private final Permissions permissions;
  private final Folders folders;
  private final TokenGenerations generations;
  private final UserInfoStore userInfo;
  private final FileUrlController fileUrls;
  private final AccessTokens tokens;
  private final WopiHostProperties props;

  public WopiFileAccess(
      Permissions permissions,
      Folders folders,
      TokenGenerations generations,
      UserInfoStore userInfo,
      FileUrlController fileUrls,
      AccessTokens tokens,
      WopiHostProperties props) {
    this.permissions = permissions;
    this.folders = folders;
    this.generations = generations;
    this.userInfo = userInfo;
    this.fileUrls = fileUrls;
    this.tokens = tokens;
    this.props = props;
  }

  public Permissions permissions() {
    return permissions;
  }

  public Folders folders() {
    return folders;
  }

  /** The right a {@code POST /wopi/files/{id}} operation (its upper-case override) needs. */
  static Right rightFor(String override) {
    return switch (override) {
      case "LOCK", "REFRESH_LOCK", "UNLOCK" -> Right.WRITE;
      case "RENAME_FILE" -> Right.RENAME;
      case "DELETE" -> Right.DELETE;
      case "PUT_RELATIVE" -> Right.CREATE;
      default -> Right.READ; // GET_LOCK, PUT_USER_INFO; unknown ones are 501 after the check
    };
  }

  /**
   * @throws WopiAuthException 401 when {@code right} is missing
   */
  void require(Set<Right> rights, Right right) {
    if (!rights.contains(right)) {
      throw WopiAuthException.unauthorized("the user may not " + right + " this file");
    }
  }

  /** Adds CheckFileInfo's user, feature and URL fields for {@code fileId}. */
  void describe(
      Map<String, Object> info,
      Set<Right> rights,
      AccessTokens.Claims claims,
      String fileId,
      String base) {
    boolean write = rights.contains(Right.WRITE);
    info.put("ReadOnly", !write);
    info.put("UserCanWrite", write);
    info.put("UserCanRename", rights.contains(Right.RENAME));
    info.put("UserCanNotWriteRelative", !rights.contains(Right.CREATE));
    info.put("SupportsContainers", true);
    info.put("SupportsEcosystem", true);
    info.put("SupportsUserInfo", true);
    userInfo.get(claims.user()).ifPresent(u -> info.put("UserInfo", u));
    info.put("HostViewUrl", hostViewUrl(base, fileId));
    info.put("HostEditUrl", hostEditUrl(base, fileId));
    // a direct download URL outside the proof-checked WOPI endpoints, as clients fetch it unsigned
    info.put("FileUrl", fileUrls.fileUrl(base, fileId, claims));
  }

  /** Whether PutRelativeFile from {@code sourceId} may overwrite {@code targetId}. */
  boolean mayOverwrite(String user, String sourceId, String targetId) {
    return folders.folderOf(targetId).equals(folders.folderOf(sourceId))
        && permissions.onFile(user, targetId).contains(Right.WRITE);
  }

  /**
   * Bookkeeping of a file just created in {@code folderId}: a fresh token generation, its folder.
   */
  void created(String fileId, String folderId) {
    generations.revoke(fileId); // a stale generation of a file deleted behind the host's back
    folders.place(fileId, folderId);
  }

  /** Bookkeeping of a deleted file: its tokens end, its folder is forgotten. */
  void forget(String fileId) {
    generations.revoke(fileId);
    folders.forget(fileId);
  }

  /** PutRelativeFile's and CreateChildFile's answer: the new file's name and URLs. */
  Map<String, Object> newFileAnswer(Document created, AccessTokens.Claims claims, String base) {
    String token = tokens.issueFrom(claims, TokenScopes.file(created.id()), props.tokenTtl());
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("Name", created.name());
    result.put(
        "Url",
        HostUrls.wopiSrc(base, created.id()) + "?access_token=" + HostUrls.encodeQuery(token));
    result.put("HostViewUrl", hostViewUrl(base, created.id()));
    result.put("HostEditUrl", hostEditUrl(base, created.id()));
    return result;
  }

  /** PutUserInfo: the body (UTF-8, at most {@value UserInfoStore#MAX_LENGTH} characters). */
  ResponseEntity<Void> putUserInfo(AccessTokens.Claims claims, HttpServletRequest request)
      throws IOException {
    byte[] body;
    // the upload deadline as for every body: a trickling sender would otherwise hold a worker
    try (InputStream in =
        new DeadlineInputStream(request.getInputStream(), props.maxUploadTime())) {
      body = in.readNBytes(UserInfoStore.MAX_LENGTH * 4 + 1);
    }
    String info = new String(body, StandardCharsets.UTF_8);
    if (body.length > UserInfoStore.MAX_LENGTH * 4 || info.length() > UserInfoStore.MAX_LENGTH) {
      return ResponseEntity.status(HttpStatus.BAD_REQUEST).build();
    }
    userInfo.put(claims.user(), info);
    return ResponseEntity.ok().build();
  }

  /** The host page that opens {@code fileId} for viewing. */
  static String hostViewUrl(String base, String fileId) {
    return base + "/open/" + HostUrls.encodeSegment(fileId) + "?action=view";
  }

  /** The host page that opens {@code fileId} for editing. */
  static String hostEditUrl(String base, String fileId) {
    return base + "/open/" + HostUrls.encodeSegment(fileId);
  }
}
