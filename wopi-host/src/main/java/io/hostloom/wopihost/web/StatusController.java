package io.hostloom.wopihost.web;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.wopi.WopiLockInfo;
import io.hostloom.wopi.WopiLockProvider;
import io.hostloom.wopi.WopiLockUnavailableException;
import io.hostloom.wopihost.WopiHostProperties;
import io.hostloom.wopihost.files.Document;
import io.hostloom.wopihost.files.DocumentStore;
import io.hostloom.wopihost.security.AccessTokens;
import io.hostloom.wopihost.security.DiscoveryClient;
import io.hostloom.wopihost.security.WopiDiscovery;
import jakarta.servlet.http.HttpServletRequest;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.HtmlUtils;

/**
 * The host's own pages: {@code /api/files} (files and lock states, for the page at {@code /}),
 * {@code /api/token} (a token for trying the host) and {@code /open/{id}} (the WOPI host page that
 * opens a file in the configured WOPI client). Token-issuing endpoints answer loopback clients
 * only, unless {@code wopi-host.allow-remote-token-requests} is set.
 */
@RestController
public class StatusController {
  private final DocumentStore store;
  private final WopiLockProvider locks;
  private final LockBackend backend;
  private final AccessTokens tokens;
  private final Optional<DiscoveryClient> discovery;
  private final HostUrls urls;
  private final WopiHostProperties props;
  private final Clock clock;

  public StatusController(
      DocumentStore store,
      WopiLockProvider locks,
      LockBackend backend,
      AccessTokens tokens,
      Optional<DiscoveryClient> discovery,
      HostUrls urls,
      WopiHostProperties props,
      Clock clock) {
    this.store = store;
    this.locks = locks;
    this.backend = backend;
    this.tokens = tokens;
    this.discovery = discovery;
    this.urls = urls;
    this.props = props;
    this.clock = clock;
  }

  /** Every file with its lock state; one backend read per file. */
  @GetMapping(value = "/api/files", produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<Map<String, Object>> files() {
    Instant now = clock.instant();
    Optional<WopiDiscovery> client = discovery.flatMap(DiscoveryClient::get);
    List<Map<String, Object>> files = new ArrayList<>();
    int locked = 0;
    for (Document d : store.list()) {
      Map<String, Object> f = new LinkedHashMap<>();
      f.put("id", d.id());
      f.put("name", d.name());
      f.put("size", d.size());
      f.put("version", d.version());
      Optional<WopiLockInfo> lock;
      try {
        lock = locks.getLock(d.id());
      } catch (WopiLockUnavailableException e) {
        lock = Optional.empty();
        f.put("lockError", "lock store unavailable");
      }
      if (lock.isPresent()) {
        locked++;
        Map<String, Object> l = new LinkedHashMap<>();
        l.put("lockId", lock.get().lockId());
        l.put("ageSeconds", seconds(Duration.between(lock.get().lastRefreshed(), now)));
        l.put("expiresInSeconds", seconds(Duration.between(now, lock.get().expiresAt())));
        l.put("expiresAt", lock.get().expiresAt().toString());
        f.put("lock", l);
      } else {
        f.put("lock", null);
      }
      String ext = d.extension().isEmpty() ? "" : d.extension().substring(1);
      boolean openable = client.flatMap(c -> c.openUrl(ext, "x")).isPresent();
      f.put("openUrl", openable ? "open/" + HostUrls.encodeSegment(d.id()) : null);
      files.add(f);
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("folder", store.root().toString());
    body.put("lockStore", backend.name());
    body.put("wopiClient", discovery.map(c -> c.url().toString()).orElse(null));
    body.put("locked", locked);
    body.put("files", files);
    return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(body);
  }

  /** A token for {@code user} on {@code file}, with its WOPISrc. Loopback clients only. */
  @GetMapping(value = "/api/token", produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<Map<String, Object>> token(
      @RequestParam("file") String file,
      @RequestParam(value = "user", required = false) String user,
      HttpServletRequest request) {
    if (!mayIssueTokens(request)) {
      return ResponseEntity.status(HttpStatus.FORBIDDEN).build();
    }
    if (store.find(file).isEmpty()) {
      return ResponseEntity.notFound().build();
    }
    String u = user == null || user.isBlank() ? props.user() : user.strip();
    if (u.indexOf('\n') >= 0 || u.length() > 200) {
      return ResponseEntity.badRequest().build();
    }
    String token = tokens.issue(u, file, props.tokenTtl());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("user", u);
    body.put("fileId", file);
    body.put("wopiSrc", HostUrls.wopiSrc(urls.base(request), file));
    body.put("accessToken", token);
    body.put("accessTokenTtl", clock.instant().plus(props.tokenTtl()).toEpochMilli());
    return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(body);
  }

  /**
   * The WOPI host page: posts a fresh token to the WOPI client's action URL inside a full-window
   * frame, as WOPI clients expect.
   */
  @GetMapping(value = "/open/{id}", produces = MediaType.TEXT_HTML_VALUE)
  public ResponseEntity<String> open(@PathVariable("id") String id, HttpServletRequest request) {
    if (!mayIssueTokens(request)) {
      return ResponseEntity.status(HttpStatus.FORBIDDEN).build();
    }
    Optional<Document> doc = store.find(id);
    Optional<WopiDiscovery> client = discovery.flatMap(DiscoveryClient::get);
    if (doc.isEmpty() || client.isEmpty()) {
      return ResponseEntity.notFound().build();
    }
    String ext = doc.get().extension().isEmpty() ? "" : doc.get().extension().substring(1);
    Optional<String> action = client.get().openUrl(ext, HostUrls.wopiSrc(urls.base(request), id));
    if (action.isEmpty()) {
      return ResponseEntity.notFound().build();
    }
    String token = tokens.issue(props.user(), id, props.tokenTtl());
    long ttl = clock.instant().plus(props.tokenTtl()).toEpochMilli();
    String html =
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>"
            + HtmlUtils.htmlEscape(doc.get().name())
            + "</title><style>html,body,iframe{margin:0;border:0;width:100%;height:100%;"
            + "overflow:hidden}</style></head><body>"
            + "<form id=\"f\" target=\"office\" method=\"post\" action=\""
            + HtmlUtils.htmlEscape(action.get())
            + "\"><input type=\"hidden\" name=\"access_token\" value=\""
            + HtmlUtils.htmlEscape(token)
            + "\"><input type=\"hidden\" name=\"access_token_ttl\" value=\""
            + ttl
            + "\"></form><iframe name=\"office\" title=\"Office\" allowfullscreen"
            + " sandbox=\"allow-scripts allow-same-origin allow-forms allow-popups"
            + " allow-top-navigation allow-popups-to-escape-sandbox\"></iframe>"
            + "<script>document.getElementById('f').submit();</script></body></html>";
    return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(html);
  }

  private boolean mayIssueTokens(HttpServletRequest request) {
    if (props.allowRemoteTokenRequests()) {
      return true;
    }
    try {
      return InetAddress.getByName(request.getRemoteAddr()).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static long seconds(Duration d) {
    return Math.max(0, d.toSeconds());
  }
}
