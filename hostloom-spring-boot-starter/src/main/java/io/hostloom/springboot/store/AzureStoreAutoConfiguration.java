package io.hostloom.springboot.store;

import io.hostloom.azure.AzureBlobLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.springboot.HostloomAutoConfiguration;
import io.hostloom.springboot.HostloomProperties;
import io.hostloom.springboot.HostloomSettings;
import io.hostloom.springboot.HostloomWopiAutoConfiguration;
import io.hostloom.wopi.WopiLockComparer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * {@code hostloom.store=azure}: an {@link AzureBlobLockBackend} on {@code
 * hostloom.azure.connection-string} or {@code hostloom.azure.service-uri} (with
 * DefaultAzureCredential), in {@code hostloom.azure.container-name}. The backend is told the WOPI
 * comparer and expiry, so locks written by a .NET WopiHost instance in the same container are
 * understood. Active only when {@code io.hostloom:hostloom-azure} is on the classpath.
 */
@AutoConfiguration(
    after = HostloomAutoConfiguration.class,
    before = HostloomWopiAutoConfiguration.class)
@ConditionalOnClass(AzureBlobLockBackend.class)
@ConditionalOnProperty(prefix = "hostloom", name = "store", havingValue = "azure")
public class AzureStoreAutoConfiguration {

  @Bean(HostloomSettings.BACKEND_BEAN)
  @ConditionalOnMissingBean(LockBackend.class)
  AzureBlobLockBackend hostloomLockBackend(HostloomSettings settings, WopiLockComparer comparer) {
    HostloomProperties.Azure azure = settings.properties().getAzure();
    AzureBlobLockBackend.Builder b =
        AzureBlobLockBackend.builder()
            .containerName(azure.getContainerName())
            .commandTimeout(azure.getCommandTimeout())
            .wopiComparer(comparer)
            .wopiExpiry(settings.wopiExpiry());
    if (azure.getConnectionString() != null && !azure.getConnectionString().isBlank()) {
      b.connectionString(azure.getConnectionString());
    } else {
      b.serviceUri(azure.getServiceUri());
    }
    return b.build();
  }
}
