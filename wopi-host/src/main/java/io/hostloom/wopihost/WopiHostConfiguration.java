package io.hostloom.wopihost;

import io.hostloom.wopihost.files.DocumentStore;
import io.hostloom.wopihost.files.Folders;
import io.hostloom.wopihost.files.QuotaReservations;
import io.hostloom.wopihost.files.SampleDocuments;
import io.hostloom.wopihost.files.TokenGenerations;
import io.hostloom.wopihost.security.AccessTokens;
import io.hostloom.wopihost.security.DiscoveryClient;
import io.hostloom.wopihost.security.Permissions;
import io.hostloom.wopihost.security.WopiRequestAuthenticator;
import io.hostloom.wopihost.users.AccessPolicy;
import io.hostloom.wopihost.users.FileAccessPolicy;
import io.hostloom.wopihost.users.UserInfoStore;
import io.hostloom.wopihost.web.DemoTokenGate;
import io.hostloom.wopihost.web.HostHeaderFilter;
import io.hostloom.wopihost.web.HostUrls;
import io.hostloom.wopihost.web.SecurityHeadersFilter;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The host's beans: the documents folder, tokens, proof keys and URLs. */
@Configuration(proxyBeanMethods = false)
public class WopiHostConfiguration {
  private static final Logger log = LoggerFactory.getLogger(WopiHostConfiguration.class);

  @Bean
  @ConditionalOnMissingBean
  Clock clock() {
    return Clock.systemUTC();
  }

  @Bean
  DocumentStore documentStore(WopiHostProperties props, Clock clock) {
    DocumentStore store = new DocumentStore(props.docsDir(), clock);
    SampleDocuments.seedIfEmpty(store);
    return store;
  }

  /** One per instance, shared by every upload path (PutFile, PutRelativeFile, CreateChildFile). */
  @Bean
  QuotaReservations quotaReservations(DocumentStore store, WopiHostProperties props) {
    return new QuotaReservations(store, props.maxFolderSize().toBytes());
  }

  @Bean
  Folders folders(DocumentStore store) {
    return new Folders(store);
  }

  @Bean
  TokenGenerations tokenGenerations(DocumentStore store) {
    return new TokenGenerations(store);
  }

  @Bean
  UserInfoStore userInfoStore(DocumentStore store) {
    return new UserInfoStore(store);
  }

  /** The users file's rules; an {@link AccessPolicy} bean of an application replaces it. */
  @Bean
  @ConditionalOnMissingBean
  AccessPolicy accessPolicy(WopiHostProperties props) {
    if (props.usersFile() == null) {
      log.warn(
          "No wopi-host.users-file configured: every user a valid token names may read, write,"
              + " create, rename and delete everywhere (for trying the host only; set"
              + " wopi-host.users-file or provide an AccessPolicy bean)");
      return FileAccessPolicy.everyoneMayDoEverything();
    }
    return FileAccessPolicy.load(props.usersFile());
  }

  @Bean
  Permissions permissions(AccessPolicy policy, Folders folders) {
    return new Permissions(policy, folders);
  }

  @Bean
  AccessTokens accessTokens(WopiHostProperties props, Clock clock, TokenGenerations generations) {
    byte[] secret;
    if (props.tokenSecret() == null || props.tokenSecret().isEmpty()) {
      secret = new byte[32];
      new SecureRandom().nextBytes(secret);
      log.info(
          "No wopi-host.token-secret configured: tokens are signed with a random secret for this"
              + " run only (they die with the process, and other instances do not accept them)");
    } else {
      secret = props.tokenSecret().getBytes(StandardCharsets.UTF_8);
    }
    return new AccessTokens(secret, clock, generations::current);
  }

  @Bean(initMethod = "start", destroyMethod = "close")
  @ConditionalOnProperty(prefix = "wopi-host", name = "discovery-url")
  DiscoveryClient discoveryClient(WopiHostProperties props) {
    return new DiscoveryClient(
        props.discoveryUrl(), props.discoveryAllowInsecureLocalhost(), props.discoveryTimeout());
  }

  @Bean
  WopiRequestAuthenticator wopiRequestAuthenticator(
      AccessTokens tokens,
      Optional<DiscoveryClient> discovery,
      WopiHostProperties props,
      Clock clock) {
    return new WopiRequestAuthenticator(
        tokens, discovery, Optional.ofNullable(props.publicUrl()), clock);
  }

  @Bean
  HostUrls hostUrls(WopiHostProperties props) {
    return new HostUrls(Optional.ofNullable(props.publicUrl()));
  }

  @Bean
  HostHeaderFilter hostHeaderFilter(WopiHostProperties props) {
    return new HostHeaderFilter(Optional.ofNullable(props.publicUrl()));
  }

  @Bean
  SecurityHeadersFilter securityHeadersFilter() {
    return new SecurityHeadersFilter();
  }

  @Bean
  DemoTokenGate demoTokenGate(WopiHostProperties props) {
    return DemoTokenGate.of(props.demoTokens(), Optional.ofNullable(props.publicUrl()));
  }
}
