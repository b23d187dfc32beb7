package io.hostloom.wopihost;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.wopihost.files.DocumentStore;
import io.hostloom.wopihost.files.SampleDocuments;
import io.hostloom.wopihost.security.AccessTokens;
import io.hostloom.wopihost.web.HostUrls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * Prints, once the server listens, everything needed to try the host: the page, a WOPISrc for the
 * validator's {@code .wopitest} file, and the command line of Microsoft's WOPI validator ({@code -w
 * WOPISrc -t token}), which users build from its own repository. A valid token is printed only with
 * the demo door open ({@code wopi-host.demo-tokens=true}); otherwise the command shows a {@code
 * <token>} placeholder, so logs shipped elsewhere hold no credential.
 */
@Component
public class StartupBanner implements ApplicationListener<WebServerInitializedEvent> {
  private static final Logger log = LoggerFactory.getLogger(StartupBanner.class);

  private final DocumentStore store;
  private final AccessTokens tokens;
  private final LockBackend backend;
  private final WopiHostProperties props;

  public StartupBanner(
      DocumentStore store, AccessTokens tokens, LockBackend backend, WopiHostProperties props) {
    this.store = store;
    this.tokens = tokens;
    this.backend = backend;
    this.props = props;
  }

  @Override
  public void onApplicationEvent(WebServerInitializedEvent event) {
    if (!log.isInfoEnabled()) {
      return;
    }
    int port = event.getWebServer().getPort();
    String base =
        props.publicUrl() != null
            ? props.publicUrl().toString().replaceAll("/$", "")
            : "http://localhost:" + port;
    StringBuilder sb = new StringBuilder();
    sb.append("\n\n  HostLoom WOPI host is running")
        .append("\n    page:         ")
        .append(base)
        .append('/')
        .append("\n    documents:    ")
        .append(store.root())
        .append("\n    lock backend: ")
        .append(backend.name());
    if (store.find(SampleDocuments.VALIDATOR_FILE).isPresent()) {
      String wopiSrc = HostUrls.wopiSrc(base, SampleDocuments.VALIDATOR_FILE);
      sb.append("\n    WOPISrc:      ").append(wopiSrc);
      // a token in the log is a credential for anyone who reads it: only with the demo door open
      String token = "<token>";
      if (props.demoTokens()) {
        token = tokens.issue(props.user(), SampleDocuments.VALIDATOR_FILE, props.tokenTtl());
        sb.append("\n    token:        ")
            .append(token)
            .append("  (user '")
            .append(props.user())
            .append("', valid ")
            .append(props.tokenTtl())
            .append(')');
      } else {
        sb.append(
            "\n    token:        not printed: the demo door is closed (wopi-host.demo-tokens=true"
                + " prints one, for a try on this machine)");
      }
      sb.append(
              "\n    validator:    Microsoft's WOPI validator (github.com/microsoft/wopi-validator-core,")
          .append(" built with 'dotnet build'), from its checkout:")
          .append(
              "\n                  dotnet run --project src/WopiValidator/WopiValidator.csproj --framework net6.0 -- -w ")
          .append(wopiSrc)
          .append(" -t ")
          .append(token)
          .append(" -l 0 -g Locks");
    }
    if (props.demoTokens()) {
      sb.append("\n    more tokens:  ")
          .append(base)
          .append("/api/token?file=<file id>&user=<name>");
    }
    sb.append('\n');
    log.info(sb.toString());
  }
}
