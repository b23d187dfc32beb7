package io.hostloom.springboot.backend.azure;

import io.hostloom.azure.AzureBlobLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import io.hostloom.springboot.HostLoomSettings;
import io.hostloom.springboot.HostLoomWopiAutoConfiguration;
import io.hostloom.springboot.backend.ConditionalOnBackend;
import io.hostloom.wopi.WopiLockComparer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * {@code hostloom.backend=azure}: an {@link AzureBlobLockBackend} on {@code
 * hostloom.azure.connection-string} or {@code hostloom.azure.service-uri} (with
 * DefaultAzureCredential), in {@code hostloom.azure.container-name}. The backend is told the WOPI
 * comparer and expiry, so locks written by a .NET WopiHost instance in the same container are
 * understood. Every {@link AzureBlobLockBackendBuilderCustomizer} bean changes the builder last.
 * Active only when {@code io.hostloom:hostloom-azure} is on the classpath.
 */
@AutoConfiguration(
    after = HostLoomAutoConfiguration.class,
    before = HostLoomWopiAutoConfiguration.class)
@ConditionalOnClass(AzureBlobLockBackend.class)
@ConditionalOnBackend("azure")
@EnableConfigurationProperties(AzureBackendProperties.class)
public class AzureBackendAutoConfiguration {

  @Bean(HostLoomSettings.BACKEND_BEAN)
  @ConditionalOnMissingBean(LockBackend.class)
  AzureBlobLockBackend hostloomLockBackend(
      HostLoomSettings settings,
      AzureBackendProperties azure,
      WopiLockComparer comparer,
      ObjectProvider<AzureBlobLockBackendBuilderCustomizer> customizers) {
    AzureBlobLockBackend.Builder b =
        AzureBlobLockBackend.builder()
            .containerName(azure.getContainerName())
            .commandTimeout(azure.getCommandTimeout())
            .healthTimeout(azure.getHealthTimeout())
            .unleasedClaimGrace(azure.getUnleasedClaimGrace())
            .wopiComparer(comparer)
            .wopiExpiry(settings.wopiExpiry());
    if (azure.getConnectionString() != null && !azure.getConnectionString().isBlank()) {
      b.connectionString(azure.getConnectionString());
    } else {
      b.serviceUri(azure.getServiceUri());
    }
    customizers.orderedStream().forEach(c -> c.customize(b));
    return b.build();
  }
}
