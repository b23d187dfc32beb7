package io.hostloom.benchmarks.faces;

import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.DeleteSnapshotsOptionType;
import com.azure.storage.blob.options.BlobAcquireLeaseOptions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import com.azure.storage.blob.specialized.BlobLeaseClientBuilder;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import io.hostloom.azure.AzureBlobLockBackend;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The raw Azure SDK (synchronous client, same retry options as the backend: one try) making the
 * same requests the backend makes per operation, with the conditions that make them safe, and
 * nothing else: acquire = Put Blob (If-None-Match *) + Lease Blob acquire; refresh and relock = Get
 * Blob Properties + Set Blob Metadata (If-Match, lease); unlock = Get Blob Properties + Delete Blob
 * (If-Match, lease); get lock = Get Blob Properties.
 */
final class RawAzureFace implements Face {
  private final CountingPolicy counter = new CountingPolicy();
  private final BlobContainerClient container;
  private final Duration timeout;
  private final Map<String, String> leases = new HashMap<>();

  RawAzureFace(String connectionString, String containerName, Duration timeout) {
    this.timeout = timeout;
    this.container =
        new BlobServiceClientBuilder()
            .connectionString(connectionString)
            .retryOptions(
                new RequestRetryOptions(
                    RetryPolicyType.FIXED, 1, (int) timeout.toSeconds(), null, null, null))
            .addPolicy(counter)
            .buildClient()
            .getBlobContainerClient(containerName);
    container.createIfNotExists();
  }

  private BlobClient blob(String key) {
    return container.getBlobClient(AzureBlobLockBackend.blobName(key));
  }

  private static Map<String, String> claim(String owner, String data) {
    Map<String, String> m = new HashMap<>();
    m.put("owner", owner);
    m.put("data", data);
    return m;
  }

  @Override
  public void acquire(String key) {
    put(key, "0123456789abcdef0123456789abcdef", "");
  }

  private void put(String key, String owner, String data) {
    BlobClient b = blob(key);
    String etag =
        b.getBlockBlobClient()
            .uploadWithResponse(
                new BlockBlobSimpleUploadOptions(BinaryData.fromBytes(new byte[0]))
                    .setMetadata(claim(owner, data))
                    .setRequestConditions(new BlobRequestConditions().setIfNoneMatch("*")),
                timeout,
                Context.NONE)
            .getValue()
            .getETag();
    String leaseId = UUID.randomUUID().toString();
    new BlobLeaseClientBuilder()
        .blobClient(b)
        .leaseId(leaseId)
        .buildClient()
        .acquireLeaseWithResponse(
            new BlobAcquireLeaseOptions(-1)
                .setRequestConditions(new BlobRequestConditions().setIfMatch(etag)),
            timeout,
            Context.NONE);
    leases.put(key, leaseId);
  }

  @Override
  public void release(String key) {
    delete(key);
  }

  private void delete(String key) {
    BlobClient b = blob(key);
    BlobProperties p = owned(b, null);
    b.deleteWithResponse(
        DeleteSnapshotsOptionType.INCLUDE,
        new BlobRequestConditions().setIfMatch(p.getETag()).setLeaseId(leases.remove(key)),
        timeout,
        Context.NONE);
  }

  private void rewrite(String key, String owner, String data) {
    BlobClient b = blob(key);
    BlobProperties p = owned(b, null);
    b.setMetadataWithResponse(
        claim(owner, data),
        new BlobRequestConditions().setIfMatch(p.getETag()).setLeaseId(leases.get(key)),
        timeout,
        Context.NONE);
  }

  /** Reads the blob's properties; the owner check itself is local. */
  private BlobProperties owned(BlobClient b, String expectedOwner) {
    BlobProperties p = b.getPropertiesWithResponse(null, timeout, Context.NONE).getValue();
    if (expectedOwner != null && !expectedOwner.equals(p.getMetadata().get("owner"))) {
      throw new IllegalStateException("not the owner");
    }
    return p;
  }

  @Override
  public void lock(String file, String lockId) {
    put(file, lockId, lockId);
  }

  @Override
  public void refresh(String file, String lockId) {
    rewrite(file, lockId, lockId);
  }

  @Override
  public String getLock(String file) {
    try {
      BlobProperties p =
          blob(file).getPropertiesWithResponse(null, timeout, Context.NONE).getValue();
      return p.getMetadata().getOrDefault("data", "");
    } catch (BlobStorageException e) {
      if (e.getStatusCode() == 404) {
        return "";
      }
      throw e;
    }
  }

  @Override
  public void relock(String file, String newLockId, String oldLockId) {
    rewrite(file, newLockId, newLockId);
  }

  @Override
  public void unlock(String file, String lockId) {
    delete(file);
  }

  @Override
  public long roundTrips() {
    return counter.count();
  }

  @Override
  public void close() {}
}
