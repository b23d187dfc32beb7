package io.hostloom.azure;

import io.hostloom.locking.time.LockClock;
import io.hostloom.wopi.WopiLockProvider;
import java.util.Objects;

/**
 * WOPI locks in Azure Blob Storage, interoperable with .NET WopiHost's {@code AzureLockProvider}: a
 * {@link WopiLockProvider} over an {@link AzureBlobLockBackend} with an <b>empty key prefix</b>, so
 * the blob of a file is named by the SHA-256 of the raw file id exactly as .NET names it, and with
 * the backend's {@link AzureBlobLockBackend#wopiComparer() comparer} and {@link
 * AzureBlobLockBackend#wopiExpiry() expiry}, so a lock a .NET instance wrote is owned by the same
 * identity a Java host computes for its lock id.
 *
 * <pre>{@code
 * AzureBlobLockBackend backend = AzureBlobLockBackend.builder()
 *     .connectionString(System.getenv("WOPI_LOCKS_CONNECTION_STRING"))
 *     .containerName("wopi-locks")
 *     .build();
 * WopiLockProvider locks = AzureWopiLocks.create(backend);
 * }</pre>
 *
 * <p>Use a container of its own for WOPI locks: with the empty prefix, a kernel lock key equal to a
 * file id would name the same blob.
 */
public final class AzureWopiLocks {
  private AzureWopiLocks() {}

  /** A provider on the system clock. */
  public static WopiLockProvider create(AzureBlobLockBackend backend) {
    return create(backend, LockClock.system());
  }

  /**
   * A provider whose lock times are reported by {@code clock} (expiry is still the storage
   * service's).
   */
  public static WopiLockProvider create(AzureBlobLockBackend backend, LockClock clock) {
    Objects.requireNonNull(backend, "backend");
    Objects.requireNonNull(clock, "clock");
    return WopiLockProvider.builder(backend)
        .keyPrefix("")
        .comparer(backend.wopiComparer())
        .expiry(backend.wopiExpiry())
        .clock(clock)
        .build();
  }
}
