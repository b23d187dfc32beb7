package io.hostloom.wopihost.web;

import io.hostloom.wopi.WopiLockOperation;
import io.hostloom.wopi.WopiLockProtocol;
import io.hostloom.wopi.WopiLockResponse;
import io.hostloom.wopihost.WopiHostProperties;
import io.hostloom.wopihost.files.Document;
import io.hostloom.wopihost.files.DocumentStore;
import io.hostloom.wopihost.files.FileIds;
import io.hostloom.wopihost.files.Folders;
import io.hostloom.wopihost.files.Folders.Folder;
import io.hostloom.wopihost.files.QuotaReservations;
import io.hostloom.wopihost.files.StagedContent;
import io.hostloom.wopihost.files.TokenGenerations;
import io.hostloom.wopihost.security.AccessTokens;
import io.hostloom.wopihost.security.Permissions;
import io.hostloom.wopihost.security.TokenScopes;
import io.hostloom.wopihost.security.WopiAuthException;
import io.hostloom.wopihost.security.WopiRequestAuthenticator;
import io.hostloom.wopihost.users.Right;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The WOPI containers and ecosystem endpoints over {@link Folders}: CheckContainerInfo,
 * EnumerateChildren, EnumerateAncestors (of a container or a file), CreateChildFile,
 * CreateChildContainer, DeleteContainer, RenameContainer, GetEcosystem, CheckEcosystem and
 * GetRootContainer. Each request is authenticated (token, proof keys) like the files endpoint: a
 * folder's token opens that folder only ({@link TokenScopes#container}), the ecosystem's token is
 * the user's own ({@link TokenScopes#USER}); what the user may do is the {@link Permissions}'
 * answer for the folder. Every URL in an answer carries a token minted from the request's, expiring
 * no later.
 */
@RestController
public class WopiContainersController {
  private static final String OVERRIDE = "X-WOPI-Override";

  private final DocumentStore store;
  private final Folders folders;
  private final Permissions permissions;
  private final WopiRequestAuthenticator auth;
  private final AccessTokens tokens;
  private final TokenGenerations generations;
  private final WopiLockProtocol locks;
  private final WopiFileAccess access;
  private final HostUrls urls;
  private final WopiHostProperties props;
  private final QuotaReservations quota;

  public WopiContainersController(
      DocumentStore store,
      Folders folders,
      Permissions permissions,
      WopiRequestAuthenticator auth,
      AccessTokens tokens,
      TokenGenerations generations,
      WopiLockProtocol locks,
      WopiFileAccess access,
      HostUrls urls,
      WopiHostProperties props,
      QuotaReservations quota) {
    this.store = store;
    this.folders = folders;
    this.permissions = permissions;
    this.auth = auth;
    this.tokens = tokens;
    this.generations = generations;
    this.locks = locks;
    this.access = access;
    this.urls = urls;
    this.props = props;
    this.quota = quota;
  }

  /** CheckContainerInfo. */
  @GetMapping(value = "/wopi/containers/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<Map<String, Object>> checkContainerInfo(
      @PathVariable("id") String id, HttpServletRequest request) {
    AccessTokens.Claims claims = authenticateContainer(id, request);
    Folder folder = existing(id);
    Set<Right> rights = permissions.inFolder(claims.user(), id);
    require(rights, Right.READ);
    Map<String, Object> info = new LinkedHashMap<>();
    info.put("Name", folder.name());
    info.put("HostUrl", urls.base(request) + "/");
    info.put("UserCanCreateChildContainer", rights.contains(Right.CREATE));
    info.put("UserCanCreateChildFile", rights.contains(Right.CREATE));
    info.put("UserCanDelete", !folder.isRoot() && rights.contains(Right.DELETE));
    info.put("UserCanRename", !folder.isRoot() && rights.contains(Right.RENAME));
    return ok(info);
  }

  /** EnumerateAncestors of a container: its ancestors, root first, without itself. */
  @GetMapping(value = "/wopi/containers/{id}/ancestry", produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<Map<String, Object>> containerAncestors(
      @PathVariable("id") String id, HttpServletRequest request) {
    AccessTokens.Claims claims = authenticateContainer(id, request);
    existing(id);
    require(permissions.inFolder(claims.user(), id), Right.READ);
    List<Folder> path = folders.path(id).orElseThrow(NotFound::new);
    return ancestry(path.subList(0, path.size() - 1), claims, request);
  }

  /** EnumerateAncestors of a file: its folder and that folder's ancestors, root first. */
  @GetMapping(value = "/wopi/files/{id}/ancestry", produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<Map<String, Object>> fileAncestors(
      @PathVariable("id") String id, HttpServletRequest request) {
    AccessTokens.Claims claims = authenticateFile(id, request);
    permissions.requireOnFile(claims.user(), id, Right.READ);
    return ancestry(folders.path(folders.folderOf(id)).orElseThrow(NotFound::new), claims, request);
  }

  /** EnumerateChildren, filtered by {@code X-WOPI-FileExtensionFilterList} when sent. */
  @GetMapping(value = "/wopi/containers/{id}/children", produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<Map<String, Object>> children(
      @PathVariable("id") String id, HttpServletRequest request) {
    AccessTokens.Claims claims = authenticateContainer(id, request);
    existing(id);
    require(permissions.inFolder(claims.user(), id), Right.READ);
    String filter = request.getHeader("X-WOPI-FileExtensionFilterList");
    List<String> extensions =
        filter == null || filter.isBlank()
            ? List.of()
            : Arrays.stream(filter.split(","))
                .map(e -> e.strip().toLowerCase(Locale.ROOT))
                .filter(e -> !e.isEmpty())
                .map(e -> e.startsWith(".") ? e : "." + e)
                .toList();
    String base = urls.base(request);
    List<Map<String, Object>> files = new ArrayList<>();
    for (Document d : folders.files(id)) {
      if (!extensions.isEmpty() && !extensions.contains(d.extension().toLowerCase(Locale.ROOT))) {
        continue;
      }
      Map<String, Object> f = new LinkedHashMap<>();
      f.put("Name", d.name());
      f.put("Url", fileUrl(base, d.id(), claims));
      f.put("LastModifiedTime", DateTimeFormatter.ISO_INSTANT.format(d.lastModified()));
      f.put("Size", d.size());
      f.put("Version", d.version());
      files.add(f);
    }
    List<Map<String, Object>> containers = new ArrayList<>();
    for (Folder f : folders.childFolders(id)) {
      containers.add(pointer(f, claims, base));
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("ChildFiles", files);
    body.put("ChildContainers", containers);
    return ok(body);
  }

  /** CreateChildFile, CreateChildContainer, DeleteContainer and RenameContainer. */
  @PostMapping("/wopi/containers/{id}")
  public ResponseEntity<?> containerOperation(
      @PathVariable("id") String id, HttpServletRequest request) {
    AccessTokens.Claims claims = authenticateContainer(id, request);
    Folder folder = existing(id);
    String override = request.getHeader(OVERRIDE);
    String op = override == null ? "" : override.strip().toUpperCase(Locale.ROOT);
    Set<Right> rights = permissions.inFolder(claims.user(), id);
    switch (op) {
      case "CREATE_CHILD_FILE":
        require(rights, Right.CREATE);
        return createChildFile(folder, claims, request);
      case "CREATE_CHILD_CONTAINER":
        require(rights, Right.CREATE);
        return createChildContainer(folder, claims, request);
      case "DELETE_CONTAINER":
        require(rights, Right.DELETE);
        return deleteContainer(folder);
      case "RENAME_CONTAINER":
        require(rights, Right.RENAME);
        return renameContainer(folder, request);
      default:
        return ResponseEntity.status(HttpStatus.NOT_IMPLEMENTED).build();
    }
  }

  /** GetEcosystem of a file: the ecosystem URL with a token of the user's own. */
  @GetMapping(
      value = "/wopi/files/{id}/ecosystem_pointer",
      produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<Map<String, Object>> fileEcosystem(
      @PathVariable("id") String id, HttpServletRequest request) {
    AccessTokens.Claims claims = authenticateFile(id, request);
    permissions.requireOnFile(claims.user(), id, Right.READ);
    return ecosystemPointer(claims, request);
  }

  /** GetEcosystem of a container. */
  @GetMapping(
      value = "/wopi/containers/{id}/ecosystem_pointer",
      produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<Map<String, Object>> containerEcosystem(
      @PathVariable("id") String id, HttpServletRequest request) {
    AccessTokens.Claims claims = authenticateContainer(id, request);
    existing(id);
    require(permissions.inFolder(claims.user(), id), Right.READ);
    return ecosystemPointer(claims, request);
  }

  /** CheckEcosystem. */
  @GetMapping(value = "/wopi/ecosystem", produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<Map<String, Object>> checkEcosystem(HttpServletRequest request) {
    auth.authenticate(request, TokenScopes.USER);
    return ok(Map.of("SupportsContainers", true));
  }

  /** GetRootContainer: the root folder, for a user who may read it. */
  @GetMapping(
      value = "/wopi/ecosystem/root_container_pointer",
      produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<Map<String, Object>> rootContainer(HttpServletRequest request) {
    AccessTokens.Claims claims = auth.authenticate(request, TokenScopes.USER);
    require(permissions.inFolder(claims.user(), Folders.ROOT), Right.READ);
    Folder root = folders.find(Folders.ROOT).orElseThrow();
    return ok(Map.of("ContainerPointer", pointer(root, claims, urls.base(request))));
  }

  private ResponseEntity<?> createChildFile(
      Folder folder, AccessTokens.Claims claims, HttpServletRequest request) {
    String suggested = request.getHeader("X-WOPI-SuggestedTarget");
    String relative = request.getHeader("X-WOPI-RelativeTarget");
    if ((suggested == null) == (relative == null)) {
      return ResponseEntity.status(HttpStatus.NOT_IMPLEMENTED).build(); // exactly one is required
    }
    Optional<String> decoded =
        WopiFilesController.decodeName(suggested != null ? suggested : relative);
    if (decoded.isEmpty()) {
      return ResponseEntity.badRequest().build();
    }
    String name = decoded.get();
    if (suggested != null && name.startsWith(".")) {
      name = "New file" + name;
    }
    if (!FileIds.isValid(name)) {
      return ResponseEntity.badRequest().build();
    }
    Optional<Document> existing = suggested != null ? Optional.empty() : store.find(name);
    if (relative != null
        && existing.isEmpty()
        && NewFileNames.shownByAnotherFile(store, name, "")) {
      return conflict(name); // looks like another file's name: not that file, nor a new one
    }
    if (existing.isPresent()) {
      boolean overwrite =
          "true".equalsIgnoreCase(request.getHeader("X-WOPI-OverwriteRelativeTarget"));
      if (!overwrite
          || !folders.folderOf(name).equals(folder.id())
          || !permissions.onFile(claims.user(), name).contains(Right.WRITE)) {
        return conflict(name);
      }
      WopiLockResponse check =
          locks.handle(WopiLockOperation.PUT_RELATIVE_FILE, name, request::getHeader);
      if (!check.isOk()) {
        return lockRefusal(check);
      }
    }
    Optional<Document> created;
    // an empty body, but the same path as every upload: quota reservation, lock re-check at commit
    try (QuotaReservations.Reservation reservation =
            quota.open(existing.map(Document::size).orElse(0L));
        StagedContent empty = store.stage(InputStream.nullInputStream(), 0).orElseThrow()) {
      if (!reservation.cover(empty.size())) {
        return ResponseEntity.status(HttpStatus.INSUFFICIENT_STORAGE).build();
      }
      LockRecheck recheck = new LockRecheck(locks, WopiLockOperation.PUT_RELATIVE_FILE, request);
      created =
          suggested != null
              ? NewFileNames.createUnique(store, name, empty)
              : existing.isPresent()
                  ? store.write(name, empty, recheck)
                  : store.create(name, empty);
      if (created.isEmpty() && recheck.refusal().isPresent()) {
        return lockRefusal(recheck.refusal().get());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stage an empty file", e);
    }
    if (created.isEmpty()) {
      // the overwritten file went meanwhile: 404; a new name taken meanwhile: 409
      return existing.isPresent() ? ResponseEntity.notFound().build() : conflict(name);
    }
    if (existing.isEmpty()) {
      access.created(created.get().id(), folder.id());
    }
    return ResponseEntity.ok()
        .contentType(MediaType.APPLICATION_JSON)
        .body(access.newFileAnswer(created.get(), claims, urls.base(request)));
  }

  private ResponseEntity<?> createChildContainer(
      Folder folder, AccessTokens.Claims claims, HttpServletRequest request) {
    String suggested = request.getHeader("X-WOPI-SuggestedTarget");
    String relative = request.getHeader("X-WOPI-RelativeTarget");
    if ((suggested == null) == (relative == null)) {
      return ResponseEntity.status(HttpStatus.NOT_IMPLEMENTED).build();
    }
    Optional<String> decoded =
        WopiFilesController.decodeName(suggested != null ? suggested : relative);
    if (decoded.isEmpty() || !Folders.isValidName(decoded.get())) {
      return ResponseEntity.badRequest()
          .header("X-WOPI-InvalidContainerNameError", "not a valid folder name")
          .build();
    }
    String name = decoded.get();
    Optional<Folder> made = folders.create(folder.id(), name);
    for (int n = 1; made.isEmpty() && suggested != null && n < 1000; n++) {
      made = folders.create(folder.id(), name + " (" + n + ")");
    }
    if (made.isEmpty()) {
      return ResponseEntity.status(HttpStatus.CONFLICT).build();
    }
    return ResponseEntity.ok()
        .contentType(MediaType.APPLICATION_JSON)
        .body(Map.of("ContainerPointer", pointer(made.get(), claims, urls.base(request))));
  }

  private ResponseEntity<?> deleteContainer(Folder folder) {
    if (folder.isRoot()) {
      return ResponseEntity.status(HttpStatus.CONFLICT).build();
    }
    if (!folders.isEmpty(folder.id())) {
      return ResponseEntity.status(HttpStatus.CONFLICT).build();
    }
    folders.delete(folder.id());
    generations.revoke(TokenScopes.container(folder.id()));
    return ResponseEntity.ok().build();
  }

  private ResponseEntity<?> renameContainer(Folder folder, HttpServletRequest request) {
    String requested = request.getHeader("X-WOPI-RequestedName");
    if (requested == null) {
      return ResponseEntity.badRequest().build();
    }
    Optional<String> decoded = WopiFilesController.decodeName(requested);
    if (decoded.isEmpty() || !Folders.isValidName(decoded.get())) {
      return ResponseEntity.badRequest()
          .header("X-WOPI-InvalidContainerNameError", "not a valid folder name")
          .build();
    }
    if (folder.isRoot()) {
      return ResponseEntity.badRequest()
          .header("X-WOPI-InvalidContainerNameError", "the root folder cannot be renamed")
          .build();
    }
    Optional<Folder> renamed = folders.rename(folder.id(), decoded.get());
    if (renamed.isEmpty()) {
      return ResponseEntity.status(HttpStatus.CONFLICT)
          .header("X-WOPI-InvalidContainerNameError", "another folder here has this name")
          .build();
    }
    return ResponseEntity.ok()
        .contentType(MediaType.APPLICATION_JSON)
        .body(Map.of("Name", renamed.get().name()));
  }

  private ResponseEntity<Map<String, Object>> ancestry(
      List<Folder> ancestors, AccessTokens.Claims claims, HttpServletRequest request) {
    String base = urls.base(request);
    List<Map<String, Object>> list = new ArrayList<>();
    for (Folder f : ancestors) {
      list.add(pointer(f, claims, base));
    }
    return ok(Map.of("AncestorsWithRootFirst", list));
  }

  private ResponseEntity<Map<String, Object>> ecosystemPointer(
      AccessTokens.Claims claims, HttpServletRequest request) {
    String token = tokens.issueFrom(claims, TokenScopes.USER, props.tokenTtl());
    return ok(
        Map.of(
            "Url",
            urls.base(request) + "/wopi/ecosystem?access_token=" + HostUrls.encodeQuery(token)));
  }

  private Map<String, Object> pointer(Folder f, AccessTokens.Claims claims, String base) {
    String token = tokens.issueFrom(claims, TokenScopes.container(f.id()), props.tokenTtl());
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("Name", f.name());
    p.put(
        "Url",
        base
            + "/wopi/containers/"
            + HostUrls.encodeSegment(f.id())
            + "?access_token="
            + HostUrls.encodeQuery(token));
    return p;
  }

  private String fileUrl(String base, String fileId, AccessTokens.Claims claims) {
    String token = tokens.issueFrom(claims, TokenScopes.file(fileId), props.tokenTtl());
    return HostUrls.wopiSrc(base, fileId) + "?access_token=" + HostUrls.encodeQuery(token);
  }

  private static ResponseEntity<?> lockRefusal(WopiLockResponse refusal) {
    ResponseEntity.BodyBuilder b = ResponseEntity.status(refusal.status());
    refusal.headers().forEach(b::header);
    return b.build();
  }

  private ResponseEntity<?> conflict(String name) {
    return ResponseEntity.status(HttpStatus.CONFLICT)
        .header("X-WOPI-ValidRelativeTarget", Utf7.encode(NewFileNames.freeName(store, name)))
        .build();
  }

  private AccessTokens.Claims authenticateContainer(String id, HttpServletRequest request) {
    if (!Folders.isValidId(id)) {
      throw new NotFound();
    }
    rejectRepeatedHeaders(request);
    return auth.authenticate(request, TokenScopes.container(id));
  }

  private AccessTokens.Claims authenticateFile(String id, HttpServletRequest request) {
    if (!FileIds.isValid(id)) {
      throw new NotFound();
    }
    rejectRepeatedHeaders(request);
    AccessTokens.Claims claims = auth.authenticate(request, TokenScopes.file(id));
    if (store.find(id).isEmpty()) {
      throw new NotFound();
    }
    return claims;
  }

  private static void rejectRepeatedHeaders(HttpServletRequest request) {
    if (SingleValuedHeaders.firstRepeated(request).isPresent()) {
      throw new BadRequest();
    }
  }

  private Folder existing(String id) {
    return folders.find(id).orElseThrow(NotFound::new);
  }

  private static void require(Set<Right> rights, Right right) {
    if (!rights.contains(right)) {
      throw WopiAuthException.unauthorized("the user may not " + right + " in this folder");
    }
  }

  private static ResponseEntity<Map<String, Object>> ok(Map<String, Object> body) {
    return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(body);
  }

  @ExceptionHandler(WopiAuthException.class)
  ResponseEntity<Void> rejected(WopiAuthException e) {
    return ResponseEntity.status(e.status()).build();
  }

  @ExceptionHandler(NotFound.class)
  ResponseEntity<Void> notFound() {
    return ResponseEntity.notFound().build();
  }

  @ExceptionHandler(BadRequest.class)
  ResponseEntity<Void> badRequest() {
    return ResponseEntity.badRequest().build();
  }

  /** An unknown (or malformed) container or file id: 404. */
  static final class NotFound extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotFound() {
      super("not found", null, false, false);
    }
  }

  /** A header the host acts on was sent twice: 400. */
  static final class BadRequest extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadRequest() {
      super("repeated header", null, false, false);
    }
  }
}
