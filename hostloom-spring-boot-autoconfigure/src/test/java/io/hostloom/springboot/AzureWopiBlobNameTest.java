package io.hostloom.springboot;

import static io.hostloom.springboot.HostLoomAutoConfigurationTest.ALL;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobListDetails;
import com.azure.storage.blob.models.ListBlobsOptions;
import io.hostloom.azure.AzuriteTestServer;
import io.hostloom.wopi.WopiLockProvider;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * With {@code hostloom.backend=azure} the starter-built WOPI provider names a file's lock blob as
 * .NET WopiHost does, the lowercase hex SHA-256 of the file id's UTF-8 bytes, so Java and .NET
 * hosts on one container see the same lock; {@code hostloom.azure.dotnet-wopi-layout=false} opts
 * out. On a real Azurite.
 */
class AzureWopiBlobNameTest {
  private static final String FILE_ID = "Sales/Q3 ü report.docx";

  private final AzuriteTestServer azurite = AzuriteTestServer.shared();

  private ApplicationContextRunner runner(BlobContainerClient container) {
    return new ApplicationContextRunner()
        .withConfiguration(ALL)
        .withPropertyValues(
            "hostloom.locking.namespace=blob-names",
            "hostloom.backend=azure",
            "hostloom.azure.connection-string="
                + azurite.connectionString("127.0.0.1", azurite.port()),
            "hostloom.azure.container-name=" + container.getBlobContainerName());
  }

  @Test
  void aWopiLockTakenThroughTheStarterIsTheBlobDotnetNames() {
    BlobContainerClient container = azurite.newContainer("starter-dotnet");
    runner(container)
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              WopiLockProvider locks = ctx.getBean(WopiLockProvider.class);
              assertThat(locks.add(FILE_ID, "lock-1").success()).isTrue();

              List<BlobItem> blobs = blobs(container);
              assertThat(blobs).extracting(BlobItem::getName).containsExactly(sha256Hex(FILE_ID));
              assertThat(blobs.get(0).getMetadata()).containsEntry("wopi_lock_id", "lock-1");
            });
  }

  @Test
  void optingOutNamesTheBlobByTheKeyPrefixAndTheFileId() {
    BlobContainerClient container = azurite.newContainer("starter-prefixed");
    runner(container)
        .withPropertyValues("hostloom.azure.dotnet-wopi-layout=false")
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              WopiLockProvider locks = ctx.getBean(WopiLockProvider.class);
              assertThat(locks.add(FILE_ID, "lock-1").success()).isTrue();
              assertThat(blobs(container))
                  .extracting(BlobItem::getName)
                  .containsExactly(sha256Hex("wopi:lock:" + FILE_ID));
            });
  }

  private static List<BlobItem> blobs(BlobContainerClient container) {
    return container
        .listBlobs(
            new ListBlobsOptions().setDetails(new BlobListDetails().setRetrieveMetadata(true)),
            null)
        .stream()
        .toList();
  }

  private static String sha256Hex(String s) throws Exception {
    return HexFormat.of()
        .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
  }
}
