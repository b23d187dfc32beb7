package io.hostloom.wopihost.web;

import io.hostloom.wopihost.files.Document;
import io.hostloom.wopihost.files.DocumentStore;
import io.hostloom.wopihost.files.FileIds;
import io.hostloom.wopihost.security.AccessTokens;
import io.hostloom.wopihost.security.Permissions;
import io.hostloom.wopihost.security.TokenScopes;
import io.hostloom.wopihost.security.WopiRequestAuthenticator;
import io.hostloom.wopihost.users.Right;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.springframework.core.io.InputStreamResource;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * CheckFileInfo's {@code FileUrl}: {@code /download/{id}?access_token=...}, a plain download that
 * WOPI clients fetch without proof keys (they sign WOPI requests only), so it is not a WOPI
 * endpoint. Its token is its own: scoped to this file's download only ({@link
 * TokenScopes#fileUrl}), valid for {@link #TTL} at most and no longer than the token it was minted
 * from, dead with the file's other tokens; the user must still be allowed to read the file.
 */
@RestController
public class FileUrlController {
  /** The longest a FileUrl is valid. */
  public static final Duration TTL = Duration.ofMinutes(5);

  private final DocumentStore store;
  private final AccessTokens tokens;
  private final Permissions permissions;

  public FileUrlController(DocumentStore store, AccessTokens tokens, Permissions permissions) {
    this.store = store;
    this.tokens = tokens;
    this.permissions = permissions;
  }

  /** The FileUrl of {@code fileId} for the user of {@code claims}. */
  public String fileUrl(String base, String fileId, AccessTokens.Claims claims) {
    return base
        + "/download/"
        + HostUrls.encodeSegment(fileId)
        + "?access_token="
        + HostUrls.encodeQuery(tokens.issueFrom(claims, TokenScopes.fileUrl(fileId), TTL));
  }

  @GetMapping("/download/{id}")
  public ResponseEntity<InputStreamResource> download(
      @PathVariable("id") String id, HttpServletRequest request) throws IOException {
    if (!FileIds.isValid(id)) {
      return ResponseEntity.notFound().build();
    }
    String token = WopiRequestAuthenticator.queryToken(request.getQueryString());
    Optional<AccessTokens.Claims> claims = tokens.verify(token, TokenScopes.fileUrl(id));
    if (claims.isEmpty()) {
      return ResponseEntity.status(HttpStatus.UNAUTHORIZED).build();
    }
    if (!permissions.onFile(claims.get().user(), id).contains(Right.READ)) {
      return ResponseEntity.status(HttpStatus.UNAUTHORIZED).build();
    }
    Optional<Document> doc = store.find(id);
    if (doc.isEmpty()) {
      return ResponseEntity.notFound().build();
    }
    return FileDownloads.serve(store, doc.get(), request);
  }
}
