package io.hostloom.wopihost.web;

import io.hostloom.wopi.WopiLockOperation;
import io.hostloom.wopi.WopiLockProtocol;
import io.hostloom.wopi.WopiLockResponse;
import io.hostloom.wopi.WopiLockUnavailableException;
import io.hostloom.wopihost.WopiHostProperties;
import io.hostloom.wopihost.files.Document;
import io.hostloom.wopihost.files.DocumentStore;
import io.hostloom.wopihost.files.FileIds;
import io.hostloom.wopihost.files.NameCanonicalizer;
import io.hostloom.wopihost.files.QuotaReservations;
import io.hostloom.wopihost.files.StagedContent;
import io.hostloom.wopihost.security.AccessTokens;
import io.hostloom.wopihost.security.Permissions;
import io.hostloom.wopihost.security.WopiAuthException;
import io.hostloom.wopihost.security.WopiRequestAuthenticator;
import io.hostloom.wopihost.users.Right;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.InputStreamResource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The WOPI files endpoint, {@code /wopi/files/{id}}: CheckFileInfo, GetFile, PutFile, the lock
 * operations, PutRelativeFile, RenameFile and DeleteFile. Every lock decision is {@link
 * WopiLockProtocol}'s; this class only maps HTTP onto it and onto the {@link DocumentStore}.
 *
 * <p>Order of checks on every request: a file id that could leave the documents folder is 404
 * without touching the file system; a header the host acts on that appears twice is 400 ({@link
 * SingleValuedHeaders}); then the access token (401) and proof keys (500); then the file's
 * existence (404). A request body is read only after all of these (the token comes from the query
 * string or the {@code Authorization} header, never from a body), as raw bytes whatever its {@code
 * Content-Type}. Bodies (PutFile, PutRelativeFile) larger than {@code wopi-host.max-file-size} are
 * 413: they are streamed to a temporary file that stops one byte past the limit, so neither memory
 * nor the document changes; a body that takes longer than {@code wopi-host.max-upload-time} is 408;
 * one that would take the folder above {@code wopi-host.max-folder-size} is 507 ({@link
 * QuotaReservations}: reserved before the body is read when {@code Content-Length} is sent). The
 * lock of PutFile and of an overwriting PutRelativeFile is checked before the body is read and
 * again when the upload commits, so a LOCK taken by another client meanwhile wins.
 *
 * <p><b>Authorization.</b> A token names a user and the file it opens; what the user may do with it
 * is the {@link Permissions}' answer for the file's folder ({@link Right}), asked before anything
 * else is done: READ for CheckFileInfo, GetFile and GetLock, WRITE for PutFile and the other lock
 * operations, RENAME, DELETE, and CREATE for PutRelativeFile. A missing right is 401.
 * PutRelativeFile with {@code X-WOPI-RelativeTarget} naming an existing file in the same folder and
 * {@code X-WOPI-OverwriteRelativeTarget: true} overwrites it when the user may write it and it is
 * not locked (locked: 409 with its lock); without the overwrite header, or when the user may not
 * write it, it is 409 with a free name in {@code X-WOPI-ValidRelativeTarget}. RenameFile changes
 * the display name of the token's file only (the id, and every other file, stay as they are), and a
 * name another file already shows is refused, as is one that only looks like it (case, NFC/NFD,
 * homoglyphs: {@link NameCanonicalizer}; PutRelativeFile and CreateChildFile names alike). Tokens
 * the host mints ({@code FileUrl}, PutRelativeFile's {@code Url}) are for the token's own file or a
 * file this request created, and expire no later than the token they were minted from. DeleteFile
 * ends every token of the file.
 */
@RestController
@RequestMapping("/wopi/files")
public class WopiFilesController {
  private static final Logger log = LoggerFactory.getLogger(WopiFilesController.class);

  static final String ITEM_VERSION = "X-WOPI-ItemVersion";
  static final String OVERRIDE = "X-WOPI-Override";
  static final String OWNER_ID = "hostloom";

  private final DocumentStore store;
  private final WopiLockProtocol locks;
  private final WopiRequestAuthenticator auth;
  private final AccessTokens tokens;
  private final HostUrls urls;
  private final WopiHostProperties props;
  private final QuotaReservations quota;
  private final WopiFileAccess access;

  public WopiFilesController(
      DocumentStore store,
      WopiLockProtocol locks,
      WopiRequestAuthenticator auth,
      AccessTokens tokens,
      HostUrls urls,
      WopiHostProperties props,
      QuotaReservations quota,
      WopiFileAccess access) {
    this.store = store;
    this.locks = locks;
    this.auth = auth;
    this.tokens = tokens;
    this.urls = urls;
    this.props = props;
    this.quota = quota;
    this.access = access;
  }

  /** CheckFileInfo. Only fields of the plain WOPI (CSPP) schema, never WOPI+ ones. */
  @GetMapping(value = "/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<Map<String, Object>> checkFileInfo(
      @PathVariable("id") String id, HttpServletRequest request) {
    AccessTokens.Claims claims = authenticate(id, request);
    Optional<Document> doc = store.find(id);
    if (doc.isEmpty()) {
      return ResponseEntity.notFound().build();
    }
    Document d = doc.get();
    Set<Right> rights = access.permissions().onFile(claims.user(), id);
    access.require(rights, Right.READ);
    Map<String, Object> info = new LinkedHashMap<>();
    info.put("BaseFileName", d.name());
    info.put("OwnerId", OWNER_ID);
    info.put("Size", d.size());
    info.put("UserId", claims.user());
    info.put("UserFriendlyName", access.permissions().friendlyName(claims.user()));
    info.put("Version", d.version());
    info.put("LastModifiedTime", DateTimeFormatter.ISO_INSTANT.format(d.lastModified()));
    info.put("FileExtension", d.extension());
    info.put("SupportsLocks", true);
    info.put("SupportsGetLock", true);
    info.put("SupportsExtendedLockLength", true);
    info.put("SupportsUpdate", true);
    info.put("SupportsRename", true);
    info.put("SupportsDeleteFile", true);
    access.describe(info, rights, claims, id, urls.base(request));
    return ResponseEntity.ok().cacheControl(noStore()).body(info);
  }

  /** GetFile, with {@code X-WOPI-ItemVersion}; 412 above {@code X-WOPI-MaxExpectedSize}. */
  @GetMapping("/{id}/contents")
  public ResponseEntity<InputStreamResource> getFile(
      @PathVariable("id") String id, HttpServletRequest request) throws IOException {
    AccessTokens.Claims claims = authenticate(id, request);
    Optional<Document> doc = store.find(id);
    if (doc.isEmpty()) {
      return ResponseEntity.notFound().build();
    }
    access.permissions().requireOnFile(claims.user(), id, Right.READ);
    return FileDownloads.serve(store, doc.get(), request);
  }

  /** PutFile ({@code X-WOPI-Override: PUT}, or none): the lock check, then the write. */
  @PostMapping("/{id}/contents")
  public ResponseEntity<Void> putFile(@PathVariable("id") String id, HttpServletRequest request)
      throws IOException {
    AccessTokens.Claims claims = authenticate(id, request);
    String override = request.getHeader(OVERRIDE);
    if (override != null && !"PUT".equalsIgnoreCase(override.strip())) {
      return ResponseEntity.status(HttpStatus.NOT_IMPLEMENTED).build();
    }
    Optional<Document> doc = store.find(id);
    if (doc.isEmpty()) {
      return ResponseEntity.notFound().build();
    }
    access.permissions().requireOnFile(claims.user(), id, Right.WRITE);
    WopiLockResponse check =
        locks.handle(WopiLockOperation.PUT_FILE, id, request::getHeader, () -> doc.get().size());
    if (!check.isOk()) {
      return lockResponse(check, doc.get()).build();
    }
    try (QuotaReservations.Reservation reservation = quota.open(doc.get().size())) {
      Optional<StagedContent> body = readBody(request, reservation);
      if (body.isEmpty()) {
        return unreadBody(request);
      }
      try (StagedContent content = body.get()) {
        if (!reservation.cover(content.size())) {
          return insufficientStorage();
        }
        // the lock again, now that the body is here: a LOCK taken meanwhile wins
        LockRecheck recheck = new LockRecheck(locks, WopiLockOperation.PUT_FILE, request);
        Optional<Document> written = store.write(id, content, recheck);
        if (written.isEmpty()) {
          return recheck.refusal().isPresent()
              ? lockResponse(recheck.refusal().get(), doc.get()).build()
              : ResponseEntity.notFound().build();
        }
        return ResponseEntity.ok().header(ITEM_VERSION, written.get().version()).build();
      }
    }
  }

  /** Every {@code POST /wopi/files/{id}} operation, dispatched on {@code X-WOPI-Override}. */
  @PostMapping("/{id}")
  public ResponseEntity<?> fileOperation(@PathVariable("id") String id, HttpServletRequest request)
      throws IOException {
    AccessTokens.Claims claims = authenticate(id, request);
    String override = request.getHeader(OVERRIDE);
    String op = override == null ? "" : override.strip().toUpperCase(Locale.ROOT);
    Optional<Document> doc = store.find(id);
    if (doc.isEmpty()) {
      return ResponseEntity.notFound().build();
    }
    access.permissions().requireOnFile(claims.user(), id, WopiFileAccess.rightFor(op));
    switch (op) {
      case "LOCK":
        return lockOperation(WopiLockOperation.LOCK, doc.get(), request);
      case "GET_LOCK":
        return lockOperation(WopiLockOperation.GET_LOCK, doc.get(), request);
      case "REFRESH_LOCK":
        return lockOperation(WopiLockOperation.REFRESH_LOCK, doc.get(), request);
      case "UNLOCK":
        return lockOperation(WopiLockOperation.UNLOCK, doc.get(), request);
      case "RENAME_FILE":
        return renameFile(doc.get(), request);
      case "DELETE":
        return deleteFile(doc.get(), request);
      case "PUT_RELATIVE":
        return putRelativeFile(doc.get(), claims, request);
      case "PUT_USER_INFO":
        return access.putUserInfo(claims, request);
      default:
        return ResponseEntity.status(HttpStatus.NOT_IMPLEMENTED).build();
    }
  }

  private ResponseEntity<Void> lockOperation(
      WopiLockOperation op, Document doc, HttpServletRequest request) {
    WopiLockResponse r = locks.handle(op, doc.id(), request::getHeader);
    return lockResponse(r, doc).build();
  }

  private ResponseEntity<?> renameFile(Document doc, HttpServletRequest request) {
    String requested = request.getHeader("X-WOPI-RequestedName");
    if (requested == null) {
      return ResponseEntity.badRequest().build();
    }
    Optional<String> decoded = decodeName(requested);
    if (decoded.isEmpty() || !FileIds.isValid(decoded.get() + doc.extension())) {
      return ResponseEntity.badRequest()
          .header("X-WOPI-InvalidFileNameError", "The requested name is not a valid file name")
          .build();
    }
    String name = decoded.get();
    if (NewFileNames.shownByAnotherFile(store, name + doc.extension(), doc.id())) {
      return ResponseEntity.badRequest()
          .header("X-WOPI-InvalidFileNameError", "Another file already has this name")
          .build();
    }
    WopiLockResponse check =
        locks.handle(WopiLockOperation.RENAME_FILE, doc.id(), request::getHeader);
    if (!check.isOk()) {
      return lockResponse(check, doc).build();
    }
    Optional<Document> renamed = store.rename(doc.id(), name);
    if (renamed.isEmpty()) {
      return ResponseEntity.notFound().build();
    }
    return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(Map.of("Name", name));
  }

  private ResponseEntity<Void> deleteFile(Document doc, HttpServletRequest request) {
    WopiLockResponse check =
        locks.handle(WopiLockOperation.DELETE_FILE, doc.id(), request::getHeader);
    if (!check.isOk()) {
      return lockResponse(check, doc).build();
    }
    if (!store.delete(doc.id())) {
      return ResponseEntity.notFound().build();
    }
    access.forget(doc.id());
    return ResponseEntity.ok().build();
  }

  /**
   * PutRelativeFile: creates a file beside {@code doc} from the body, named by {@code
   * X-WOPI-SuggestedTarget} (made unique) or {@code X-WOPI-RelativeTarget} (exact), in {@code
   * doc}'s folder. An existing target is overwritten only with {@code
   * X-WOPI-OverwriteRelativeTarget: true}, only when it is in the same folder and the user may
   * write it (see the class comment) and only when its lock allows. The target name is checked
   * before the body is read.
   */
  private ResponseEntity<?> putRelativeFile(
      Document doc, AccessTokens.Claims claims, HttpServletRequest request) throws IOException {
    String suggested = request.getHeader("X-WOPI-SuggestedTarget");
    String relative = request.getHeader("X-WOPI-RelativeTarget");
    if ((suggested == null) == (relative == null)) {
      return ResponseEntity.status(HttpStatus.NOT_IMPLEMENTED).build(); // exactly one is required
    }
    Optional<String> decoded = decodeName(suggested != null ? suggested : relative);
    if (decoded.isEmpty()) {
      return ResponseEntity.badRequest().build();
    }
    String name = decoded.get();
    if (suggested != null && name.startsWith(".")) {
      String base = doc.name();
      int dot = base.lastIndexOf('.');
      name = (dot > 0 ? base.substring(0, dot) : base) + name;
    }
    if (!FileIds.isValid(name)) {
      return ResponseEntity.badRequest().build();
    }
    Optional<Document> existing = suggested != null ? Optional.empty() : store.find(name);
    if (relative != null
        && existing.isEmpty()
        && NewFileNames.shownByAnotherFile(store, name, "")) {
      // a name that looks like another file's: not that file, and not a new file either
      return ResponseEntity.status(HttpStatus.CONFLICT)
          .header("X-WOPI-ValidRelativeTarget", Utf7.encode(NewFileNames.freeName(store, name)))
          .build();
    }
    if (existing.isPresent()) {
      boolean overwrite =
          "true".equalsIgnoreCase(request.getHeader("X-WOPI-OverwriteRelativeTarget"));
      if (!overwrite || !access.mayOverwrite(claims.user(), doc.id(), existing.get().id())) {
        return ResponseEntity.status(HttpStatus.CONFLICT)
            .header("X-WOPI-ValidRelativeTarget", Utf7.encode(NewFileNames.freeName(store, name)))
            .build();
      }
      WopiLockResponse check =
          locks.handle(WopiLockOperation.PUT_RELATIVE_FILE, name, request::getHeader);
      if (!check.isOk()) {
        return lockResponse(check, existing.get()).build();
      }
    }
    try (QuotaReservations.Reservation reservation =
            quota.open(existing.map(Document::size).orElse(0L));
        StagedContent content = readBody(request, reservation).orElse(null)) {
      if (content == null) {
        return unreadBody(request);
      }
      if (!reservation.cover(content.size())) {
        return insufficientStorage();
      }
      LockRecheck recheck = new LockRecheck(locks, WopiLockOperation.PUT_RELATIVE_FILE, request);
      Optional<Document> created =
          suggested != null
              ? NewFileNames.createUnique(store, name, content)
              : existing.isPresent()
                  ? store.write(name, content, recheck)
                  : store.create(name, content);
      if (created.isEmpty() && recheck.refusal().isPresent()) {
        return lockResponse(recheck.refusal().get(), existing.orElseThrow()).build();
      }
      if (created.isEmpty()) {
        return ResponseEntity.status(HttpStatus.CONFLICT)
            .header("X-WOPI-ValidRelativeTarget", Utf7.encode(NewFileNames.freeName(store, name)))
            .build();
      }
      if (existing.isEmpty()) {
        access.created(created.get().id(), access.folders().folderOf(doc.id()));
      }
      return ResponseEntity.ok()
          .contentType(MediaType.APPLICATION_JSON)
          .body(access.newFileAnswer(created.get(), claims, urls.base(request)));
    }
  }

  /** A UTF-7 file name header decoded, in NFC; empty when it is not well-formed UTF-7. */
  static Optional<String> decodeName(String header) {
    try {
      return Optional.of(NameCanonicalizer.nfc(Utf7.decode(header)));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static <T> ResponseEntity<T> insufficientStorage() {
    return ResponseEntity.status(HttpStatus.INSUFFICIENT_STORAGE).build();
  }

  private static ResponseEntity.BodyBuilder lockResponse(WopiLockResponse r, Document doc) {
    ResponseEntity.BodyBuilder b =
        ResponseEntity.status(r.status()).header(ITEM_VERSION, doc.version());
    r.headers().forEach(b::header);
    return b;
  }

  /**
   * The body staged on disk, or empty, unread, when its {@code Content-Length} is larger than
   * {@code wopi-host.max-file-size} or does not fit in the folder quota ({@code reservation} covers
   * it then), or, after reading one byte past the limit, when a body without one is too large.
   */
  private Optional<StagedContent> readBody(
      HttpServletRequest request, QuotaReservations.Reservation reservation) throws IOException {
    long max = props.maxFileSize().toBytes();
    long announced = request.getContentLengthLong();
    if (announced > max || (announced >= 0 && !reservation.cover(announced))) {
      return Optional.empty();
    }
    try (InputStream in =
        new DeadlineInputStream(request.getInputStream(), props.maxUploadTime())) {
      return store.stage(in, max);
    }
  }

  /** Why {@link #readBody} gave nothing: 507 for a fitting announced size (the quota), else 413. */
  private <T> ResponseEntity<T> unreadBody(HttpServletRequest request) {
    long announced = request.getContentLengthLong();
    return announced >= 0 && announced <= props.maxFileSize().toBytes()
        ? insufficientStorage()
        : tooLarge();
  }

  private static <T> ResponseEntity<T> tooLarge() {
    return ResponseEntity.status(HttpStatus.PAYLOAD_TOO_LARGE).build();
  }

  private AccessTokens.Claims authenticate(String id, HttpServletRequest request) {
    if (!FileIds.isValid(id)) {
      throw new InvalidFileIdException();
    }
    Optional<String> repeated = SingleValuedHeaders.firstRepeated(request);
    if (repeated.isPresent()) {
      throw new RepeatedHeaderException(repeated.get());
    }
    return auth.authenticate(request, id);
  }

  private static org.springframework.http.CacheControl noStore() {
    return org.springframework.http.CacheControl.noStore();
  }

  @ExceptionHandler(InvalidFileIdException.class)
  ResponseEntity<Void> invalidId() {
    return ResponseEntity.notFound().build();
  }

  @ExceptionHandler(RepeatedHeaderException.class)
  ResponseEntity<Void> repeatedHeader(RepeatedHeaderException e) {
    return ResponseEntity.badRequest()
        .header("X-WOPI-LockFailureReason", e.getMessage())
        .cacheControl(noStore())
        .build();
  }

  /**
   * Answered at once, closing the connection, so the slow sender's remaining body is not awaited.
   */
  @ExceptionHandler(DeadlineInputStream.TooSlowException.class)
  void tooSlow(DeadlineInputStream.TooSlowException e, HttpServletResponse response)
      throws IOException {
    response.setStatus(HttpStatus.REQUEST_TIMEOUT.value());
    response.setHeader(HttpHeaders.CONNECTION, "close");
    response.setContentLength(0);
    response.flushBuffer();
  }

  @ExceptionHandler(WopiAuthException.class)
  ResponseEntity<Void> rejected(WopiAuthException e) {
    return ResponseEntity.status(e.status()).build();
  }

  @ExceptionHandler(WopiLockUnavailableException.class)
  ResponseEntity<Void> lockBackendDown(WopiLockUnavailableException e) {
    log.warn("Lock backend unavailable: {}", e.getMessage());
    return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
        .header(HttpHeaders.RETRY_AFTER, "1")
        .build();
  }

  /** A file id that could leave the documents folder: answered 404, like a missing file. */
  static final class InvalidFileIdException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InvalidFileIdException() {
      super("invalid file id", null, false, false);
    }
  }

  /** A header the host acts on was sent more than once: answered 400, nothing else is done. */
  static final class RepeatedHeaderException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RepeatedHeaderException(String header) {
      super(header + " was sent more than once; send it exactly once", null, false, false);
    }
  }
}
