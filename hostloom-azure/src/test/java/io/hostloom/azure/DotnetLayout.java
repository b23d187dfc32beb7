package io.hostloom.azure;

import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import com.azure.storage.blob.specialized.BlobLeaseClientBuilder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * What a .NET WopiHost {@code AzureLockProvider} instance does to the lock container, written
 * independently of the backend from the reference's description (blob name, metadata keys, the
 * round-trip time format, the lease), so tests can play the .NET side of a mixed fleet.
 */
final class DotnetLayout {
  static final Duration EXPIRY = Duration.ofMinutes(30);
  private static final DateTimeFormatter ROUND_TRIP =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSxxx");

  private final BlobContainerClient container;

  DotnetLayout(BlobContainerClient container) {
    this.container = container;
  }

  /** SHA256(fileId) as lowercase hex, as .NET names the placeholder blob. */
  static String blobNameOf(String fileId) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(fileId.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  static String created(Instant t) {
    return ROUND_TRIP.format(t.atOffset(ZoneOffset.UTC));
  }

  BlobClient blobOf(String fileId) {
    return container.getBlobClient(blobNameOf(fileId));
  }

  /** .NET AddLock's writes: upload with the three keys (If-None-Match: *), infinite lease. */
  String addLock(String fileId, String lockId, Instant created) {
    String leaseId = UUID.randomUUID().toString();
    upload(fileId, lockId, leaseId, created);
    new BlobLeaseClientBuilder()
        .blobClient(blobOf(fileId))
        .leaseId(leaseId)
        .buildClient()
        .acquireLease(-1);
    return leaseId;
  }

  /** AddLock's upload alone: a .NET instance that died before taking the lease. */
  void upload(String fileId, String lockId, String leaseId, Instant created) {
    Map<String, String> md = new HashMap<>();
    md.put("wopi_lock_id", lockId);
    md.put("wopi_lease_id", leaseId);
    md.put("wopi_created", created(created));
    blobOf(fileId)
        .getBlockBlobClient()
        .uploadWithResponse(
            new BlockBlobSimpleUploadOptions(BinaryData.fromBytes(new byte[0]))
                .setMetadata(md)
                .setRequestConditions(new BlobRequestConditions().setIfNoneMatch("*")),
            null,
            Context.NONE);
  }

  /** .NET GetLock's verdict (without its eviction): the lock id if readable and not expired. */
  Optional<String> getLock(String fileId, Instant now) {
    BlobProperties p;
    try {
      p = blobOf(fileId).getProperties();
    } catch (BlobStorageException e) {
      if (e.getStatusCode() == 404) {
        return Optional.empty();
      }
      throw e;
    }
    String lockId = p.getMetadata().get("wopi_lock_id");
    Optional<Instant> created = ClaimMetadata.parseCreated(p.getMetadata().get("wopi_created"));
    if (lockId == null || lockId.isEmpty() || created.isEmpty()) {
      return Optional.empty();
    }
    return created.get().plus(EXPIRY).isBefore(now) ? Optional.empty() : Optional.of(lockId);
  }

  /**
   * .NET's TryAtomicLockUpdateAsync (RefreshLock, and UnlockAndRelock when {@code newLockId} is
   * set): read metadata and ETag, renew the lease named in the metadata, write a copy with a new
   * {@code wopi_created} under the lease and {@code If-Match}.
   */
  void update(String fileId, String newLockId, Instant now) {
    BlobClient blob = blobOf(fileId);
    BlobProperties p = blob.getProperties();
    String leaseId = p.getMetadata().get("wopi_lease_id");
    new BlobLeaseClientBuilder().blobClient(blob).leaseId(leaseId).buildClient().renewLease();
    Map<String, String> md = new HashMap<>(p.getMetadata());
    md.put("wopi_created", created(now));
    if (newLockId != null) {
      md.put("wopi_lock_id", newLockId);
    }
    blob.setMetadataWithResponse(
        md,
        new BlobRequestConditions().setIfMatch(p.getETag()).setLeaseId(leaseId),
        null,
        Context.NONE);
  }

  /** .NET RemoveLock: release the lease named in the metadata, delete the blob. */
  void removeLock(String fileId) {
    BlobClient blob = blobOf(fileId);
    String leaseId = blob.getProperties().getMetadata().get("wopi_lease_id");
    new BlobLeaseClientBuilder().blobClient(blob).leaseId(leaseId).buildClient().releaseLease();
    blob.deleteIfExists();
  }
}
