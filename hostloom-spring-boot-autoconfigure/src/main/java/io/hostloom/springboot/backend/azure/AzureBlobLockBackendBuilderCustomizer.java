package io.hostloom.springboot.backend.azure;

import io.hostloom.azure.AzureBlobLockBackend;

/**
 * Changes the {@link AzureBlobLockBackend.Builder} the Azure backend auto-configuration has filled
 * from {@code hostloom.azure.*}, before it builds: a credential of your own, HTTP pipeline
 * policies, the service version, container creation, without redefining the backend bean. Every
 * customizer bean is applied, in {@code @Order} order; a customizer's exception fails start-up.
 */
@FunctionalInterface
public interface AzureBlobLockBackendBuilderCustomizer {
  void customize(AzureBlobLockBackend.Builder builder);
}
