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
import io.hostloom.wopihost.security.Permissions;
import io.hostloom.wopihost.security.TokenScopes;
import io.hostloom.wopihost.security.WopiDiscovery;
import io.hostloom.wopihost.security.WopiRequestAuthenticator;
import io.hostloom.wopihost.users.Right;
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
 * wopi-host.demo-tokens} off the token endpoint answers 404 and {@code /api/files} shows lock
 * states without lock ids; when on, requests that do not pass the gate get 403 and the same
 * redacted list.
 *
 * <p>{@code /api/files} and {@code /open/{id}} are for an authenticated user only: one the demo
 * door lets in (as {@code wopi-host.user}), or one with a page token ({@link TokenScopes#USER}, as
 * {@code Authorization: Bearer} or {@code access_token}); others get 401. The list holds only the
 * files the user may read ({@link Permissions}).
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
  private final Permissions permissions;
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
      Clock clock,
      Permissions permissions) {
    this.store = store;
    this.locks = locks;
    this.backend = backend;
    this.tokens = tokens;
    this.discovery = discovery;
    this.urls = urls;
    this.props = props;
    this.gate = gate;
    this.clock = clock;
    this.permissions = permissions;
  }

  /** The user of a page request: the demo door's, or a page token's; empty otherwise. */
  private Optional<String> pageUser(HttpServletRequest request) {
    if (gate.allows(request)) {
      return Optional.of(props.user());
    }
    String token = WopiRequestAuthenticator.queryToken(request.getQueryString());
    String auth = request.getHeader("Authorization");
    if ((token == null || token.isEmpty())
        && auth != null
        && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
      token = auth.substring(7).strip();
    }
    return tokens.verify(token, TokenScopes.USER).map(AccessTokens.Claims::user);
  }

  /**
   * Every file with its lock state; one backend read per file. Lock ids, the folder and the WOPI
   * client's URL only for requests the demo door lets in (a lock id with a token lets its holder
   * write and unlock).
   */
  @GetMapping(value = "/api/files", produces = MediaType.APPLICATION_JSON_VALUE)
  public ResponseEntity<Map<String, Object>> files(HttpServletRequest request) {
    Optional<String> user = pageUser(request);
    if (user.isEmpty()) {
      return ResponseEntity.status(HttpStatus.UNAUTHORIZED)
          .cacheControl(CacheControl.noStore())
          .build();
    }
    Instant now = clock.instant();
    boolean full = gate.allows(request);
    Optional<WopiDiscovery> client = discovery.flatMap(DiscoveryClient::get);
    List<Map<String, Object>> files = new ArrayList<>();
    int locked = 0;
    for (Document d : store.list()) {
      if (!permissions.onFile(user.get(), d.id()).contains(Right.READ)) {
        continue;
      }
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
    body.put("user", user.get());
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
    String pageToken = tokens.issue(u, TokenScopes.USER, props.tokenTtl());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("user", u);
    body.put("fileId", file);
    body.put("wopiSrc", HostUrls.wopiSrc(urls.base(request), file));
    body.put("accessToken", token);
    body.put("accessTokenTtl", clock.instant().plus(props.tokenTtl()).toEpochMilli());
    // the page for this user (its token in the fragment, which browsers never send)
    body.put("pageUrl", urls.base(request) + "/#access_token=" + pageToken);
    return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(body);
  }

  /**
   * The WOPI host page: posts a fresh token to the WOPI client's action URL inside a full-window
   * frame, as WOPI clients expect. For the demo door's user or a page token's ({@code
   * ?access_token=}), on a file they may read. When something is missing (no WOPI client
   * configured, its discovery unreachable, no action for the file's extension, no user) a short
   * page says what. Its Content-Security-Policy lets the form post to, and the frame show, the
   * action URL's origin only, and runs only its own script (a nonce).
   */
  @GetMapping(value = "/open/{id}", produces = MediaType.TEXT_HTML_VALUE)
  public ResponseEntity<String> open(
      @PathVariable("id") String id, HttpServletRequest request, HttpServletResponse response) {
    Optional<String> user = pageUser(request);
    if (user.isEmpty()) {
      return explain(
          HttpStatus.UNAUTHORIZED,
          "Not signed in: open this page from the host's own page through the demo door"
              + " (wopi-host.demo-tokens=true, from the host machine) or with a page token"
              + " (?access_token=..., from /api/token or your identity integration).");
    }
    Optional<Document> doc = store.find(id);
    if (doc.isEmpty() || !permissions.onFile(user.get(), id).contains(Right.READ)) {
      return explain(HttpStatus.NOT_FOUND, "No such file.");
    }
    if (discovery.isEmpty()) {
      return explain(
          HttpStatus.NOT_FOUND,
          "No WOPI client is configured. Start the host with"
              + " --wopi-host.discovery-url=https://<client>/hosting/discovery (Collabora Online,"
              + " Office Online Server) and --wopi-host.public-url=https://<this host as the"
              + " client reaches it>; see \"Connecting a real client\" in wopi-host/README.md.");
    }
    Optional<WopiDiscovery> client = discovery.get().get();
    if (client.isEmpty()) {
      return explain(
          HttpStatus.SERVICE_UNAVAILABLE,
          "The WOPI client's discovery ("
              + discovery.get().url()
              + ") could not be read yet: check that this host can reach it and trusts its TLS"
              + " certificate.");
    }
    String ext = doc.get().extension().isEmpty() ? "" : doc.get().extension().substring(1);
    Optional<String> action = client.get().openUrl(ext, HostUrls.wopiSrc(urls.base(request), id));
    if (action.isEmpty()) {
      return explain(
          HttpStatus.NOT_FOUND, "The WOPI client offers no action for ." + ext + " files.");
    }
    String token = tokens.issue(user.get(), id, props.tokenTtl());
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

  /** A short HTML page that says why a file cannot be opened. */
  private static ResponseEntity<String> explain(HttpStatus status, String message) {
    String html =
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Cannot open the file</title>"
            + "</head><body><h1>Cannot open the file</h1><p>"
            + HtmlUtils.htmlEscape(message)
            + "</p></body></html>";
    return ResponseEntity.status(status)
        .contentType(MediaType.TEXT_HTML)
        .cacheControl(CacheControl.noStore())
        .body(html);
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
