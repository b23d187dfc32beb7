package io.hostloom.wopihost;

import io.hostloom.wopihost.security.DiscoveryClient;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The host's own settings ({@code wopi-host.*}); the locks are configured through the starter's
 * {@code hostloom.*} settings.
 *
 * @param docsDir the documents folder, created with sample files when empty
 * @param tokenSecret the HMAC secret for access tokens (at least 16 bytes of UTF-8); when unset, a
 *     random secret is used for this run only, so tokens die with the process and instances do not
 *     accept each other's tokens
 * @param tokenTtl how long an issued token is valid
 * @param publicUrl the base URL WOPI clients use to reach this host (scheme://host:port), used in
 *     WOPISrc values, {@code FileUrl}/{@code Url}, links and proof-key checks, never taken from
 *     request headers; when set, requests whose {@code Host} is neither its host nor a loopback
 *     name are refused (421). When unset, URLs are built from each request
 * @param discoveryUrl a WOPI client's discovery URL ({@code https}); when set, "open" links are
 *     offered and every WOPI request must carry valid proof keys
 * @param discoveryAllowInsecureLocalhost whether a {@code http} discovery (and action) URL is
 *     accepted for a loopback host: for tests only
 * @param discoveryTimeout the bound of one discovery fetch, connection and body included
 * @param user the user that tokens printed at start-up and issued by "open" links are for
 * @param maxFileSize the largest PutFile/PutRelativeFile body accepted (larger: 413, and nothing is
 *     written); bodies are streamed to disk, so this bounds disk use per request, not memory
 * @param maxUploadTime the longest a PutFile/PutRelativeFile body may take to arrive (longer: 408,
 *     nothing written); each single read is also bounded by the server's connection timeout
 * @param maxFolderSize the most the documents folder may hold; a PutFile or PutRelativeFile that
 *     would take it above is refused (507) and writes nothing
 * @param demoTokens whether the demo door is open: {@code /api/token}, {@code /open/{id}} and the
 *     lock ids, folder and client on {@code /api/files}, for direct loopback requests only (never
 *     through a proxy: any forwarding header closes it). Off by default; {@code scripts/run.sh}
 *     turns it on
 * @param usersFile the users and their rights per folder ({@code FileAccessPolicy}'s format); when
 *     unset, every user a valid token names may do everything (for trying the host only)
 */
@ConfigurationProperties("wopi-host")
public record WopiHostProperties(
    @DefaultValue("./wopi-docs") Path docsDir,
    String tokenSecret,
    @DefaultValue("10h") Duration tokenTtl,
    URI publicUrl,
    URI discoveryUrl,
    @DefaultValue("false") boolean discoveryAllowInsecureLocalhost,
    @DefaultValue("10s") Duration discoveryTimeout,
    @DefaultValue("demo") String user,
    @DefaultValue("100MB") DataSize maxFileSize,
    @DefaultValue("5m") Duration maxUploadTime,
    @DefaultValue("1GB") DataSize maxFolderSize,
    @DefaultValue("false") boolean demoTokens,
    Path usersFile) {

  /**
   * @throws IllegalArgumentException when {@code maxFileSize} or {@code maxFolderSize} is negative,
   *     {@code maxUploadTime} or {@code discoveryTimeout} is not positive, {@code publicUrl} has no
   *     scheme or host, or {@code discoveryUrl} is not {@code https} ({@link
   *     DiscoveryClient#checkUrl})
   */
  public WopiHostProperties {
    if (maxFileSize != null && maxFileSize.isNegative()) {
      throw new IllegalArgumentException(
          "wopi-host.max-file-size must be >= 0 but was " + maxFileSize);
    }
    if (maxFolderSize != null && maxFolderSize.isNegative()) {
      throw new IllegalArgumentException(
          "wopi-host.max-folder-size must be >= 0 but was " + maxFolderSize);
    }
    if (maxUploadTime != null && (maxUploadTime.isNegative() || maxUploadTime.isZero())) {
      throw new IllegalArgumentException(
          "wopi-host.max-upload-time must be positive but was " + maxUploadTime);
    }
    if (discoveryTimeout != null && (discoveryTimeout.isNegative() || discoveryTimeout.isZero())) {
      throw new IllegalArgumentException(
          "wopi-host.discovery-timeout must be positive but was " + discoveryTimeout);
    }
    if (publicUrl != null && (publicUrl.getScheme() == null || publicUrl.getHost() == null)) {
      throw new IllegalArgumentException(
          "wopi-host.public-url must be scheme://host[:port] but was " + publicUrl);
    }
    if (discoveryUrl != null) {
      DiscoveryClient.checkUrl(discoveryUrl, discoveryAllowInsecureLocalhost);
    }
  }
}
