package io.hostloom.azure;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpHeaders;
import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobAsyncClient;
import com.azure.storage.blob.BlobContainerAsyncClient;
import com.azure.storage.blob.models.BlobLeaseRequestConditions;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.options.BlobAcquireLeaseOptions;
import com.azure.storage.blob.options.BlobBreakLeaseOptions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import com.azure.storage.blob.specialized.BlobLeaseClientBuilder;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.support.Claim;
import io.hostloom.locking.spi.support.LeaseRounding;
import io.hostloom.locking.spi.support.VersionedRecord;
import io.hostloom.locking.spi.support.VersionedRecordStore;
import io.hostloom.locking.spi.support.WriteResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The versioned-record strategy over Azure Blob Storage (see {@link AzureBlobLockBackend} for the
 * layout): a key's record is its blob's metadata, the version is the whole {@link BlobState} of a
 * read (ETag, lease id, epoch, sequence), writes are conditional on the ETag and carry the lease id
 * when the blob is leased. Fencing tokens are {@code epoch * 2^20 + sequence} ({@link BlobState});
 * a release keeps a blob created in the current second as a released marker.
 *
 * <p>A lost write under a lease is followed by a read in the same call: when the blob is unchanged
 * (same ETag, same recorded lease id, leased both times) the recorded id is not the blob's lease,
 * so the state is marked and the next write decided on it breaks the lease (conditionally) first,
 * instead of retrying forever. The current state goes back with the loss, so the backend decides on
 * it without another read.
 */
final class AzureBlobRecordStore implements VersionedRecordStore<BlobState> {
  private static final BinaryData EMPTY = BinaryData.fromBytes(new byte[0]);

  /**
   * The least whole seconds of any instance's unleased grace: it must exceed the command timeout
   * plus the 1 s clock margin ({@link AzureBlobLockBackend.Builder#unleasedClaimGrace}).
   */
  private static final long LEAST_GRACE_SECONDS = 2;

  private final BlobContainerAsyncClient container;
  private final boolean createContainer;
  private final BlobState.Rules rules;
  private final Clock wallClock = Clock.systemUTC();
  private volatile boolean containerReady;

  AzureBlobRecordStore(
      BlobContainerAsyncClient container, boolean createContainer, BlobState.Rules rules) {
    this.container = container;
    this.createContainer = createContainer;
    this.containerReady = !createContainer;
    this.rules = rules;
  }

  @Override
  public CompletableFuture<Optional<VersionedRecord<BlobState>>> read(String key) {
    return call("read", applied -> readState(blob(key)).map(AzureBlobRecordStore::view));
  }

  /**
   * Creates the blob with the claim ({@code If-None-Match: *}), then leases it ({@code If-Match}).
   * Lost when the blob exists, or (after a partial write) when someone changed it before the lease
   * was taken.
   */
  @Override
  public CompletableFuture<WriteResult<BlobState>> create(String key, Claim claim) {
    BlobAsyncClient blob = blob(key);
    String leaseId = newLeaseId();
    Map<String, String> md =
        ClaimMetadata.held(claim.owner(), claim.data(), millis(claim), leaseId, now(), null, 0);
    BlockBlobSimpleUploadOptions upload =
        new BlockBlobSimpleUploadOptions(EMPTY)
            .setMetadata(md)
            .setRequestConditions(new BlobRequestConditions().setIfNoneMatch("*"));
    return call(
        "create",
        applied ->
            blob.getBlockBlobAsyncClient()
                .uploadWithResponse(upload)
                .flatMap(
                    r -> {
                      applied.set(true);
                      long uploaded = r.getValue().getLastModified().toEpochSecond();
                      // the lease leaves Last-Modified alone on Azure and Azurite; if it ever moved
                      // it, the lease response's value is the one readers derive the epoch from
                      return leaseModified(blob, leaseId, r.getValue().getETag())
                          .map(
                              modified ->
                                  WriteResult.<BlobState>written(
                                      BlobState.token(Math.max(uploaded, modified), 0)))
                          .switchIfEmpty(
                              afterLostLease(
                                  blob,
                                  uploaded,
                                  millis(claim),
                                  WriteResult.written(BlobState.token(uploaded, 0))));
                    })
                // 409 (412 on some versions): the blob exists; a 404 means the container is gone
                .onErrorResume(
                    e -> AzureFailures.status(e) == 409 || AzureFailures.status(e) == 412,
                    e -> Mono.just(WriteResult.lost())));
  }

  @Override
  public CompletableFuture<WriteResult<BlobState>> compareAndSet(
      String key, BlobState s, Claim claim) {
    long sequence = claim.isNewGrant() ? s.sequence() + 1 : s.sequence();
    long token = BlobState.token(s.epoch(), sequence);
    Map<String, String> md =
        ClaimMetadata.held(
            claim.owner(), claim.data(), millis(claim), leaseIdFor(s), now(), s.epoch(), sequence);
    return call("write", applied -> write(blob(key), s, md, true, applied, token));
  }

  /** Deletes the blob; one created in the service's current second stays as a released marker. */
  @Override
  public CompletableFuture<WriteResult<BlobState>> compareAndDelete(String key, BlobState s) {
    BlobAsyncClient blob = blob(key);
    if (!s.deletable()) { // keep the blob (and its epoch) so the next token stays above this one
      Map<String, String> md = ClaimMetadata.released(leaseIdFor(s), s.epoch(), s.sequence());
      return call("write", applied -> write(blob, s, md, false, applied, 0));
    }
    return call("delete", applied -> delete(blob, s, applied));
  }

  /** Evicts an expired claim by deleting its blob, unless it was created this very second. */
  @Override
  public CompletableFuture<WriteResult<BlobState>> evictExpired(String key, BlobState s) {
    if (!s.deletable()) {
      return CompletableFuture.completedFuture(WriteResult.deleted()); // expired all the same
    }
    return call("delete", applied -> delete(blob(key), s, applied));
  }

  @Override
  public void checkStorable(String owner, String data) {
    // room for the largest numbers: rejected before anything is sent
    ClaimMetadata.requireFits(
        ClaimMetadata.held(
            owner,
            data,
            LeaseRounding.FOREVER,
            newLeaseId(),
            Instant.EPOCH,
            Long.MAX_VALUE,
            Long.MAX_VALUE));
  }

  @Override
  public LockFailureKind failureKind(Throwable error) {
    return error instanceof LockBackendException
        ? ((LockBackendException) error).kind()
        : AzureFailures.kindOf(error);
  }

  @Override
  public String describe(Throwable error) {
    return error instanceof LockBackendException
        ? error.getMessage()
        : AzureFailures.describe(error);
  }

  /** Creates the container when enabled and not yet done by this instance. */
  Mono<Void> ensureContainer() {
    if (containerReady) {
      return Mono.empty();
    }
    return container.createIfNotExists().doOnSuccess(created -> containerReady = true).then();
  }

  // ------------------------------------------------------------------ requests

  /**
   * Writes {@code md} over the state {@code s} was read in: {@code If-Match} its ETag, with its
   * lease id when leased. An unleased blob is leased afterwards when {@code lease} is set (under
   * {@code If-Match} of the new ETag).
   */
  private Mono<WriteResult<BlobState>> write(
      BlobAsyncClient blob,
      BlobState s,
      Map<String, String> md,
      boolean lease,
      AtomicBoolean applied,
      long token) {
    if (s.locked() && (s.leaseId() == null || s.recordedLeaseRefused())) {
      return breakLease(blob, s).thenReturn(WriteResult.lost()); // read again: now unleased
    }
    BlobRequestConditions conditions = new BlobRequestConditions().setIfMatch(s.etag());
    if (s.locked()) {
      conditions.setLeaseId(s.leaseId());
    }
    WriteResult<BlobState> done = token > 0 ? WriteResult.written(token) : WriteResult.deleted();
    Mono<HttpHeaders> written =
        blob.setMetadataWithResponse(md, conditions)
            .map(
                r -> {
                  applied.set(true);
                  return r.getHeaders();
                });
    if (s.locked() || !lease) {
      return written
          .thenReturn(done)
          .onErrorResume(AzureFailures::isConflict, e -> lostOver(blob, s));
    }
    return written
        .flatMap(
            h ->
                leaseModified(
                        blob,
                        md.get(ClaimMetadata.LEASE_ID),
                        Optional.ofNullable(h.getValue(HttpHeaderName.ETAG)).orElse(""))
                    .map(modified -> done)
                    .switchIfEmpty(
                        afterLostLease(
                            blob,
                            headerSeconds(h, HttpHeaderName.LAST_MODIFIED).orElse(0L),
                            Long.parseLong(md.get(ClaimMetadata.LEASE_MILLIS)),
                            done)))
        .onErrorResume(AzureFailures::isConflict, e -> lostOver(blob, s));
  }

  /**
   * The lease of a claim just written (unleased, at {@code claimSecond}) lost: someone changed the
   * blob in between. The claim was every reader's and writer's record from its write on; the lease
   * only hardens it. While no instance can yet have judged the claim abandoned (its own lease or
   * the least unleased grace any instance may use has not passed on the service's clock), the
   * change was made by an operation that saw the claim live (a WOPI unlock, refresh or relock of
   * the same lock id): the write took effect and was superseded, so it answers {@code written}.
   * Deciding again would split one operation into two visible effects (a lock others saw and
   * relocked, answered 409: not linearizable). Later, the claim may have been taken over as
   * abandoned: then the operation decides again on the blob's state, as any lost write.
   */
  private Mono<WriteResult<BlobState>> afterLostLease(
      BlobAsyncClient blob, long claimSecond, long leaseMillis, WriteResult<BlobState> written) {
    long liveForEveryone =
        claimSecond
            + Math.min(BlobState.ceilSeconds(Duration.ofMillis(leaseMillis)), LEAST_GRACE_SECONDS)
            + BlobState.MARGIN_SECONDS;
    return Mono.defer(
        () ->
            readState(blob)
                .map(
                    now ->
                        claimSecond > 0 && now.nowSecond() < liveForEveryone
                            ? written
                            : WriteResult.<BlobState>lostAfterPartialWrite()));
  }

  /** Deletes the blob read as {@code s}, conditionally. */
  private Mono<WriteResult<BlobState>> delete(BlobAsyncClient blob, BlobState s, AtomicBoolean a) {
    if (s.locked() && (s.leaseId() == null || s.recordedLeaseRefused())) {
      return breakLease(blob, s).thenReturn(WriteResult.lost());
    }
    BlobRequestConditions conditions = new BlobRequestConditions().setIfMatch(s.etag());
    if (s.locked()) {
      conditions.setLeaseId(s.leaseId());
    }
    return blob.deleteWithResponse(null, conditions)
        .map(
            r -> {
              a.set(true);
              return WriteResult.<BlobState>deleted();
            })
        .onErrorResume(AzureFailures::isConflict, e -> lostOver(blob, s));
  }

  /**
   * A write based on {@code s} lost: the blob's state now, marked when the recorded lease failed.
   */
  private Mono<WriteResult<BlobState>> lostOver(BlobAsyncClient blob, BlobState s) {
    return readState(blob)
        .map(
            now -> {
              if (s.locked()
                  && now.locked()
                  && now.etag() != null
                  && now.etag().equals(s.etag())
                  && Objects.equals(now.leaseId(), s.leaseId())) {
                now.markRecordedLeaseRefused();
              }
              return WriteResult.lost(view(now));
            });
  }

  /**
   * Acquires an infinite lease under {@code If-Match: etag} and emits the blob's Last-Modified
   * second from the response (what every later read will see); empty when the blob changed.
   */
  private Mono<Long> leaseModified(BlobAsyncClient blob, String leaseId, String etag) {
    return new BlobLeaseClientBuilder()
        .blobAsyncClient(blob)
        .leaseId(leaseId)
        .buildAsyncClient()
        .acquireLeaseWithResponse(
            new BlobAcquireLeaseOptions(-1)
                .setRequestConditions(new BlobLeaseRequestConditions().setIfMatch(etag)))
        .map(r -> headerSeconds(r.getHeaders(), HttpHeaderName.LAST_MODIFIED).orElse(0L))
        .onErrorResume(AzureFailures::isConflict, e -> Mono.empty());
  }

  /**
   * Breaks a lease whose id we do not know, at once, under {@code If-Match} of the state read. Only
   * called from {@link #write} and {@link #delete}, that is after the backend judged this very
   * state and decided it may overwrite it (expired, or the caller's own): never on a verdict of an
   * older read.
   */
  private Mono<Void> breakLease(BlobAsyncClient blob, BlobState s) {
    return new BlobLeaseClientBuilder()
        .blobAsyncClient(blob)
        .buildAsyncClient()
        .breakLeaseWithResponse(
            new BlobBreakLeaseOptions()
                .setBreakPeriod(Duration.ZERO)
                .setRequestConditions(new BlobLeaseRequestConditions().setIfMatch(s.etag())))
        .then()
        .onErrorResume(AzureFailures::isConflict, e -> Mono.empty());
  }

  private Mono<BlobState> readState(BlobAsyncClient blob) {
    return blob.getPropertiesWithResponse(null)
        .map(r -> BlobState.of(r.getValue(), serviceNow(r.getHeaders()), now(), rules))
        .onErrorResume(e -> AzureFailures.status(e) == 404, e -> Mono.just(BlobState.absent()));
  }

  /**
   * One store call: the container check, then the request(s); a failure after a request of the call
   * was applied can no longer be {@code UNAVAILABLE}. Cancelling the future cancels the request.
   */
  private <T> CompletableFuture<T> call(String what, Function<AtomicBoolean, Mono<T>> requests) {
    AtomicBoolean applied = new AtomicBoolean();
    return Mono.defer(this::ensureContainer)
        .then(Mono.defer(() -> requests.apply(applied)))
        .onErrorMap(
            e -> {
              if (AzureFailures.isContainerMissing(e) && createContainer) {
                containerReady = false; // deleted behind our back: create it again next time
              }
              return applied.get() ? AzureFailures.toBackendException(what, e, true) : e;
            })
        .toFuture();
  }

  // ------------------------------------------------------------------ helpers

  /** A read as the strategy's record: expired, released and stray claims have no time left. */
  private static Optional<VersionedRecord<BlobState>> view(BlobState s) {
    if (s.isAbsent()) {
      return Optional.empty();
    }
    Duration remaining = s.live() ? s.remaining() : Duration.ZERO;
    return Optional.of(new VersionedRecord<>(s, s.owner(), s.data(), s.fencingToken(), remaining));
  }

  private BlobAsyncClient blob(String key) {
    return container.getBlobAsyncClient(AzureBlobLockBackend.blobName(key));
  }

  private static long millis(Claim claim) {
    return claim.lease().toMillis(); // whole milliseconds: rounded up by the generic backend
  }

  private static String leaseIdFor(BlobState s) {
    return s.locked() && s.leaseId() != null ? s.leaseId() : newLeaseId();
  }

  static String newLeaseId() {
    return UUID.randomUUID().toString(); // Azure accepts only GUIDs (Azurite accepts anything)
  }

  private Instant now() {
    return wallClock.instant();
  }

  private static Optional<Long> headerSeconds(HttpHeaders headers, HttpHeaderName name) {
    String value = headers.getValue(name);
    if (value == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          DateTimeFormatter.RFC_1123_DATE_TIME.parse(value, Instant::from).getEpochSecond());
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  /** The response's {@code Date}: the service's clock. */
  private static Instant serviceNow(HttpHeaders headers) {
    String date = headers.getValue(HttpHeaderName.DATE);
    if (date == null) {
      throw new IllegalStateException("the storage service's response had no Date header");
    }
    try {
      return DateTimeFormatter.RFC_1123_DATE_TIME.parse(date, Instant::from);
    } catch (DateTimeParseException e) {
      throw new IllegalStateException("the storage service's Date header was unreadable", e);
    }
  }
}
