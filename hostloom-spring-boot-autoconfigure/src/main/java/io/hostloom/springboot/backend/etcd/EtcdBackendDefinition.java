package io.hostloom.springboot.backend.etcd;

import io.hostloom.etcd.EtcdKeyLayout;
import io.hostloom.springboot.backend.BackendDefinition;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Binder;

/** {@code hostloom.backend=etcd}: the rules of {@code hostloom.etcd.*}. */
public final class EtcdBackendDefinition implements BackendDefinition {
  @Override
  public String name() {
    return "etcd";
  }

  @Override
  public Optional<String> backendClass() {
    return Optional.of("io.hostloom.etcd.EtcdLockBackend");
  }

  @Override
  public String artifact() {
    return "io.hostloom:hostloom-etcd";
  }

  @Override
  public void validate(Binder binder, Context context, List<String> problems) {
    EtcdBackendProperties e =
        binder
            .bind("hostloom.etcd", EtcdBackendProperties.class)
            .orElseGet(EtcdBackendProperties::new);
    List<String> endpoints = e.getEndpoints() == null ? List.of() : e.getEndpoints();
    if (endpoints.stream().allMatch(s -> s == null || s.isBlank())) {
      problems.add(
          "hostloom.etcd.endpoints is required with hostloom.backend=etcd, e.g."
              + " http://localhost:2379");
    }
    for (String s : endpoints) {
      if (s != null && !s.isBlank() && !s.strip().matches("(?i)(http|https)://.+")) {
        int colon = s.indexOf("://");
        problems.add(
            "hostloom.etcd.endpoints must start with http:// or https:// but one was '"
                + (colon < 0 ? "no scheme" : s.substring(0, colon) + "://")
                + "'");
      }
    }
    BackendDefinition.requirePositive(
        "hostloom.etcd.command-timeout", e.getCommandTimeout(), problems);
    BackendDefinition.requirePositive(
        "hostloom.etcd.health-timeout", e.getHealthTimeout(), problems);
    try {
      EtcdKeyLayout.withPrefix(e.getKeyPrefix());
    } catch (IllegalArgumentException | NullPointerException ex) {
      problems.add("hostloom.etcd.key-prefix is invalid: " + ex.getMessage());
    }
  }
}
