package io.hostloom.springboot.backend.azure;

import io.hostloom.springboot.backend.BackendDefinition;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.bind.Binder;

/** {@code hostloom.backend=azure}: the rules of {@code hostloom.azure.*}. */
public final class AzureBackendDefinition implements BackendDefinition {
  private static final Pattern CONTAINER = Pattern.compile("[a-z0-9](?:-?[a-z0-9]){2,62}");

  @Override
  public String name() {
    return "azure";
  }

  @Override
  public Optional<String> backendClass() {
    return Optional.of("io.hostloom.azure.AzureBlobLockBackend");
  }

  @Override
  public String artifact() {
    return "io.hostloom:hostloom-azure";
  }

  /**
   * Empty (the blob of the bare file id, as .NET WopiHost names it) unless {@code
   * hostloom.azure.dotnet-wopi-layout=false}.
   */
  @Override
  public String wopiKeyPrefix(Binder binder, String configured) {
    return properties(binder).isDotnetWopiLayout() ? "" : configured;
  }

  @Override
  public void validate(Binder binder, Context context, List<String> problems) {
    AzureBackendProperties a = properties(binder);
    boolean cs = a.getConnectionString() != null && !a.getConnectionString().isBlank();
    boolean uri = a.getServiceUri() != null;
    if (!cs && !uri) {
      problems.add(
          "hostloom.azure.connection-string or hostloom.azure.service-uri is required with"
              + " hostloom.backend=azure (UseDevelopmentStorage=true for Azurite)");
    } else if (cs && uri) {
      problems.add(
          "hostloom.azure.connection-string and hostloom.azure.service-uri are both set:"
              + " set exactly one");
    }
    if (uri && !List.of("http", "https").contains(String.valueOf(a.getServiceUri().getScheme()))) {
      problems.add(
          "hostloom.azure.service-uri must be an absolute http(s) URI but was '"
              + a.getServiceUri()
              + "'");
    }
    String container = a.getContainerName();
    if (container == null || !CONTAINER.matcher(container).matches()) {
      problems.add(
          "hostloom.azure.container-name must be 3 to 63 lower-case letters, digits and"
              + " single dashes, starting and ending with a letter or digit, but was '"
              + container
              + "'");
    }
    BackendDefinition.requirePositive(
        "hostloom.azure.command-timeout", a.getCommandTimeout(), problems);
    BackendDefinition.requirePositive(
        "hostloom.azure.health-timeout", a.getHealthTimeout(), problems);
    BackendDefinition.requirePositive(
        "hostloom.azure.unleased-claim-grace", a.getUnleasedClaimGrace(), problems);
    if (a.getUnleasedClaimGrace() != null
        && a.getCommandTimeout() != null
        && a.getUnleasedClaimGrace().compareTo(a.getCommandTimeout().plusSeconds(1)) <= 0) {
      problems.add(
          "hostloom.azure.unleased-claim-grace must be longer than hostloom.azure.command-timeout"
              + " + 1 s (a claim whose lease request is still in flight must not be judged"
              + " expired) but was "
              + a.getUnleasedClaimGrace());
    }
  }

  private static AzureBackendProperties properties(Binder binder) {
    return binder
        .bind("hostloom.azure", AzureBackendProperties.class)
        .orElseGet(AzureBackendProperties::new);
  }
}
