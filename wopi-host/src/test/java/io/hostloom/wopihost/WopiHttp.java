package io.hostloom.wopihost;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** A tiny WOPI client over real HTTP (java.net.http) for the end-to-end tests. */
final class WopiHttp {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private final String base;

  /**
   * @param base e.g. {@code http://127.0.0.1:PORT}
   */
  WopiHttp(String base) {
    this.base = base;
  }

  String base() {
    return base;
  }

  /** The answer of one request. */
  record Reply(int status, Map<String, String> headers, byte[] body) {
    Optional<String> header(String name) {
      return Optional.ofNullable(headers.get(name.toLowerCase(java.util.Locale.ROOT)));
    }

    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  static String url(String base, String fileId, String suffix, String token) {
    return base
        + "/wopi/files/"
        + URLEncoder.encode(fileId, StandardCharsets.UTF_8).replace("+", "%20")
        + suffix
        + "?access_token="
        + URLEncoder.encode(token, StandardCharsets.UTF_8);
  }

  Reply checkFileInfo(String fileId, String token) {
    return get(url(base, fileId, "", token), Map.of());
  }

  Reply getFile(String fileId, String token) {
    return get(url(base, fileId, "/contents", token), Map.of());
  }

  Reply putFile(String fileId, String token, String lock, byte[] body) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("X-WOPI-Override", "PUT");
    if (lock != null) {
      h.put("X-WOPI-Lock", lock);
    }
    return post(url(base, fileId, "/contents", token), h, body);
  }

  Reply lock(String fileId, String token, String lock) {
    return override(fileId, token, "LOCK", headers("X-WOPI-Lock", lock));
  }

  Reply unlockAndRelock(String fileId, String token, String newLock, String oldLock) {
    Map<String, String> h = headers("X-WOPI-Lock", newLock);
    h.putAll(headers("X-WOPI-OldLock", oldLock));
    return override(fileId, token, "LOCK", h);
  }

  Reply getLock(String fileId, String token) {
    return override(fileId, token, "GET_LOCK", Map.of());
  }

  Reply refreshLock(String fileId, String token, String lock) {
    return override(fileId, token, "REFRESH_LOCK", headers("X-WOPI-Lock", lock));
  }

  Reply unlock(String fileId, String token, String lock) {
    return override(fileId, token, "UNLOCK", headers("X-WOPI-Lock", lock));
  }

  Reply rename(String fileId, String token, String lock, String requestedName) {
    Map<String, String> h = headers("X-WOPI-Lock", lock);
    h.put("X-WOPI-RequestedName", requestedName);
    return override(fileId, token, "RENAME_FILE", h);
  }

  Reply delete(String fileId, String token) {
    return override(fileId, token, "DELETE", Map.of());
  }

  Reply putRelative(String fileId, String token, Map<String, String> headers, byte[] body) {
    Map<String, String> h = new LinkedHashMap<>(headers);
    h.put("X-WOPI-Override", "PUT_RELATIVE");
    return post(url(base, fileId, "", token), h, body);
  }

  Reply override(String fileId, String token, String override, Map<String, String> headers) {
    Map<String, String> h = new LinkedHashMap<>(headers);
    h.put("X-WOPI-Override", override);
    return post(url(base, fileId, "", token), h, new byte[0]);
  }

  /** A header map that leaves the header out when {@code value} is null. */
  static Map<String, String> headers(String name, String value) {
    Map<String, String> h = new LinkedHashMap<>();
    if (value != null) {
      h.put(name, value);
    }
    return h;
  }

  static Reply get(String url, Map<String, String> headers) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).GET();
    headers.forEach(b::header);
    return send(b);
  }

  static Reply post(String url, Map<String, String> headers, byte[] body) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofByteArray(body));
    headers.forEach(b::header);
    return send(b);
  }

  private static Reply send(HttpRequest.Builder b) {
    try {
      HttpResponse<byte[]> r =
          HTTP.send(
              b.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofByteArray());
      Map<String, String> h = new LinkedHashMap<>();
      r.headers()
          .map()
          .forEach((k, v) -> h.put(k.toLowerCase(java.util.Locale.ROOT), String.join(", ", v)));
      return new Reply(r.statusCode(), h, r.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
