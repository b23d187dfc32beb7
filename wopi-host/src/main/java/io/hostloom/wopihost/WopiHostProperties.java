package io.hostloom.wopihost;

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
 *     WOPISrc values, links and proof-key checks; when unset it is taken from each request
 * @param discoveryUrl a WOPI client's discovery URL; when set, "open" links are offered and every
 *     WOPI request must carry valid proof keys
 * @param user the user that tokens printed at start-up and issued by "open" links are for
 * @param maxFileSize the largest PutFile/PutRelativeFile body accepted (larger: 413, and nothing is
 *     written); bodies are streamed to disk, so this bounds disk use per request, not memory
 * @param allowRemoteTokenRequests whether {@code /api/token} answers non-loopback clients
 */
@ConfigurationProperties("wopi-host")
public record WopiHostProperties(
    @DefaultValue("./wopi-docs") Path docsDir,
    String tokenSecret,
    @DefaultValue("10h") Duration tokenTtl,
    URI publicUrl,
    URI discoveryUrl,
    @DefaultValue("demo") String user,
    @DefaultValue("100MB") DataSize maxFileSize,
    @DefaultValue("false") boolean allowRemoteTokenRequests) {

  /**
   * @throws IllegalArgumentException when {@code maxFileSize} is negative
   */
  public WopiHostProperties {
    if (maxFileSize != null && maxFileSize.isNegative()) {
      throw new IllegalArgumentException(
          "wopi-host.max-file-size must be >= 0 but was " + maxFileSize);
    }
  }
}
