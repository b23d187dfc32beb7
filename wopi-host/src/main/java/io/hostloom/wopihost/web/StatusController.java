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
import jakarta.servlet.http.HttpServletResponse;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
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
 * opens a file in the configured WOPI client). The token endpoints and the lock ids, folder and
 * client URL of {@code /api/files} are behind the {@link DemoTokenGate}: with {@code
 * wopi-host.demo-tokens} off the token endpoints answer 404 and {@code /api/files} shows lock
 * states without lock ids; when on, requests that do not pass the gate get 403 and the same
 * redacted list.
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
  private final DemoTokenGate gate;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();

  public StatusController(
      DocumentStore store,
      WopiLockProvider locks,
      LockBackend backend,
      AccessTokens tokens,
      Optional<DiscoveryClient> discovery,
      HostUrls urls,
      WopiHostProperties props,
      DemoTokenGate gate,
      Clock clock) {
    this.store = store;
    this.locks = locks;
    this.backend = backend;
    this.tokens = tokens;
    this.discovery = discovery;
    this.urls = urls;
    this.props = props;
    this.gate = gate;
    this.clock = clock;
  }

  /**
   * Every file with its lock state; one backend read per file. Lock ids, the folder and the WOPI
   * client's URL only for requests the demo door lets in (a lock id with a token lets its holder
   * write and unlock).
   */
  @GetMapping(value = "/api/files", produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<Map<String, Object>> files(HttpServletRequest request) {
    Instant now = clock.instant();
    boolean full = gate.allows(request);
    Optional<WopiDiscovery> client =
        full ? discovery.flatMap(DiscoveryClient::get) : Optional.empty();
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
        f.put("lockError", "lock backend unavailable");
      }
      if (lock.isPresent()) {
        locked++;
        Map<String, Object> l = new LinkedHashMap<>();
        l.put("lockId", full ? lock.get().lockId() : null);
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
    body.put("folder", full ? store.root().toString() : null);
    body.put("lockBackend", backend.name());
    body.put("wopiClient", full ? discovery.map(c -> c.url().toString()).orElse(null) : null);
    body.put("locked", locked);
    body.put("files", files);
    return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(body);
  }

  /** A token for {@code user} on {@code file}, with its WOPISrc. Demo door only. */
  @GetMapping(value = "/api/token", produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<Map<String, Object>> token(
      @RequestParam("file") String file,
      @RequestParam(value = "user", required = false) String user,
      HttpServletRequest request) {
    if (!gate.enabled()) {
      return ResponseEntity.notFound().build();
    }
    if (!gate.allows(request)) {
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
   * frame, as WOPI clients expect. Demo door only. Its Content-Security-Policy lets the form post
   * to, and the frame show, the action URL's origin only, and runs only its own script (a nonce).
   */
  @GetMapping(value = "/open/{id}", produces = MediaType.TEXT_HTML_VALUE)
  public ResponseEntity<String> open(
      @PathVariable("id") String id, HttpServletRequest request, HttpServletResponse response) {
    if (!gate.enabled()) {
      return ResponseEntity.notFound().build();
    }
    if (!gate.allows(request)) {
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
    String origin = origin(action.get());
    byte[] nonceBytes = new byte[18];
    random.nextBytes(nonceBytes);
    String nonce = Base64.getEncoder().encodeToString(nonceBytes);
    response.setHeader(
        SecurityHeadersFilter.CSP,
        "default-src 'none'; script-src 'nonce-"
            + nonce
            + "'; style-src 'nonce-"
            + nonce
            + "'; form-action "
            + origin
            + "; frame-src "
            + origin
            + "; base-uri 'none'; frame-ancestors 'none'");
    String html =
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>"
            + HtmlUtils.htmlEscape(doc.get().name())
            + "</title><style nonce=\""
            + nonce
            + "\">html,body,iframe{margin:0;border:0;width:100%;height:100%;"
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
            + "<script nonce=\""
            + nonce
            + "\">document.getElementById('f').submit();</script></body></html>";
    return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(html);
  }

  /** {@code scheme://host[:port]} of an (https, checked by the discovery) action URL. */
  private static String origin(String url) {
    URI u = URI.create(url.replace(" ", "%20"));
    return u.getScheme() + "://" + u.getRawAuthority();
  }

  private static long seconds(Duration d) {
    return Math.max(0, d.toSeconds());
  }
}
