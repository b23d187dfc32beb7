package io.hostloom.azure;

import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.LeaseStatusType;
import io.hostloom.locking.spi.LeaseRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * One read of a lock blob (Get Blob Properties) and what it means: whose claim it is, whether it is
 * live by the service's clock, its fencing token, and what a conditional write must send.
 *
 * <h2>Time</h2>
 *
 * Expiry is decided in the service's whole seconds: {@code claimSecond} is when the claim was
 * written (its Last-Modified), {@code nowSecond} the read response's {@code Date}. A claim with
 * lease {@code L} (rounded up to whole seconds) is live while {@code nowSecond < claimSecond + L +
 * 1}: the extra second covers both truncations, so no reader ever sees a claim expire before {@code
 * L} has really passed since its write. A claim written by a .NET instance is judged the same way,
 * by its Last-Modified (never by its {@code wopi_created}, the writer's wall clock), so every Java
 * instance agrees on it whatever the clocks; .NET instances judge {@code wopi_created} with their
 * own clock, which agrees only as far as the clocks do (see the module README).
 *
 * <h2>Fencing tokens</h2>
 *
 * {@code token = epoch * 2^20 + sequence}. {@code epoch} is the second the blob was created (its
 * first Last-Modified, later carried in {@code hl_epoch}); {@code sequence} counts the grants made
 * on this blob. A blob is deleted only when the service's clock is past its epoch second, so the
 * next blob under the same name has a later epoch, and every token of it exceeds every token of the
 * deleted one as long as one blob takes fewer than 2^19 grants per second.
 */
final class BlobState {
  /** What a blob holds. */
  enum Kind {
    /** No blob. */
    ABSENT,
    /** A claim written by this library. */
    HELD,
    /** A claim this library released but could not delete yet (see {@link #deletable()}). */
    RELEASED,
    /** A readable claim whose {@code hl_} fields are missing or stale (.NET wrote it last). */
    FOREIGN,
    /** A blob without a readable claim (no lock id or no parseable creation time). */
    UNREADABLE
  }

  /** How claims without our fields, and claims without a lease, are judged. */
  record Rules(
      UnaryOperator<String> foreignOwner, Duration foreignExpiry, Duration unleasedGrace) {}

  static final int TOKEN_SHIFT = 20;

  /** Seconds added to every expiry for the 1 s resolution of the service's times. */
  static final long MARGIN_SECONDS = 1;

  private static final Duration ONE_MILLI = Duration.ofMillis(1);

  private static final Pattern GUID =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private static final BlobState ABSENT_STATE = new BlobState(Kind.ABSENT);

  private final Kind kind;
  private String etag;
  private long claimSecond;
  private long nowSecond;
  private boolean locked;
  private String leaseId;
  private String owner = "";
  private String data = "";
  private Duration lease = Duration.ZERO;
  private long epoch;
  private long sequence;
  private Instant created;
  private Instant localNow;
  private boolean recordedLeaseRefused;

  private BlobState(Kind kind) {
    this.kind = kind;
  }

  static BlobState absent() {
    return ABSENT_STATE;
  }

  /**
   * Interprets a blob's properties read at {@code serviceNow} (the response's Date header), the
   * response having arrived at {@code localNow} on this instance's wall clock (used only to refine
   * {@link #remaining()} within the service's one-second bounds).
   */
  static BlobState of(BlobProperties p, Instant serviceNow, Instant localNow, Rules rules) {
    Map<String, String> md = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    if (p.getMetadata() != null) {
      md.putAll(p.getMetadata());
    }
    long modified = p.getLastModified().toEpochSecond();
    String lockId = md.get(ClaimMetadata.LOCK_ID);
    String createdText = md.get(ClaimMetadata.CREATED);
    Instant created = ClaimMetadata.parseCreated(createdText).orElse(null);
    boolean ours =
        created != null
            && ClaimMetadata.FORMAT_VERSION.equals(md.get(ClaimMetadata.FORMAT))
            && createdText.equals(md.get(ClaimMetadata.BOUND_CREATED));

    BlobState s;
    if (lockId == null || lockId.isEmpty() || created == null) {
      s = new BlobState(Kind.UNREADABLE);
      s.lease = rules.unleasedGrace();
    } else if (ours && "1".equals(md.get(ClaimMetadata.FREE))) {
      s = new BlobState(Kind.RELEASED);
    } else {
      s = ours ? held(md, lockId) : null;
      if (s == null) {
        s = new BlobState(Kind.FOREIGN);
        s.owner = foreignOwner(rules, lockId);
        s.data = lockId;
        s.lease = rules.foreignExpiry();
        s.created = created;
      }
    }
    s.etag = p.getETag();
    // every claim, .NET's included, by the service's clock: wopi_created is the writer's wall clock
    s.claimSecond = modified;
    s.nowSecond = serviceNow.getEpochSecond();
    s.localNow = localNow;
    s.locked = p.getLeaseStatus() == LeaseStatusType.LOCKED;
    String leaseId = md.get(ClaimMetadata.LEASE_ID);
    // Azure accepts only GUID lease ids, so anything else cannot be the blob's lease
    s.leaseId = leaseId != null && GUID.matcher(leaseId).matches() ? leaseId : null;
    s.epoch = parseLong(md.get(ClaimMetadata.EPOCH)).filter(e -> e <= modified).orElse(modified);
    s.sequence = parseLong(md.get(ClaimMetadata.SEQUENCE)).filter(q -> q >= 0).orElse(0L);
    if (!s.locked && (s.kind == Kind.HELD || s.kind == Kind.FOREIGN)) {
      s.lease = min(s.lease, rules.unleasedGrace()); // its writer died before leasing the blob
    }
    return s;
  }

  /** Our claim, or null when its {@code hl_} fields are damaged (then it is judged as .NET's). */
  private static BlobState held(Map<String, String> md, String lockId) {
    Optional<Long> leaseMillis = parseLong(md.get(ClaimMetadata.LEASE_MILLIS)).filter(m -> m > 0);
    String storedOwner = md.get(ClaimMetadata.OWNER);
    if (leaseMillis.isEmpty() || storedOwner == null) {
      return null;
    }
    try {
      BlobState s = new BlobState(Kind.HELD);
      s.owner = ClaimMetadata.decode(storedOwner);
      s.data = ClaimMetadata.dataOf(lockId, md.get(ClaimMetadata.DATA));
      s.lease = Duration.ofMillis(leaseMillis.get());
      s.created = ClaimMetadata.parseCreated(md.get(ClaimMetadata.CREATED)).orElse(null);
      return s;
    } catch (IllegalArgumentException badBase64) {
      return null;
    }
  }

  private static String foreignOwner(Rules rules, String lockId) {
    try {
      String o = rules.foreignOwner().apply(lockId);
      return o == null ? "" : o;
    } catch (RuntimeException notAValidLockId) {
      return ""; // no caller's owner is empty, so nobody matches it
    }
  }

  private static Optional<Long> parseLong(String s) {
    if (s == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Long.parseLong(s));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  Kind kind() {
    return kind;
  }

  boolean isAbsent() {
    return kind == Kind.ABSENT;
  }

  String etag() {
    return etag;
  }

  /** Whether the blob has an active (or breaking) lease, so writes need its lease id. */
  boolean locked() {
    return locked;
  }

  /**
   * Whether a write under {@link #leaseId()} was just refused while the blob stayed as read: the
   * recorded id is not the blob's lease, so a write decided on this state breaks it first.
   */
  boolean recordedLeaseRefused() {
    return recordedLeaseRefused;
  }

  void markRecordedLeaseRefused() {
    recordedLeaseRefused = true;
  }

  /** The lease id recorded in the metadata (a GUID), or null. */
  String leaseId() {
    return leaseId;
  }

  String owner() {
    return owner;
  }

  String data() {
    return data;
  }

  long epoch() {
    return epoch;
  }

  long sequence() {
    return sequence;
  }

  /** The service's time of the read, in whole seconds. */
  long nowSecond() {
    return nowSecond;
  }

  /**
   * Whether the claim is live at the service's time of the read. A claim whose blob has no lease
   * (its writer died between writing and leasing) is live only for the unleased grace.
   */
  boolean live() {
    if (kind != Kind.HELD && kind != Kind.FOREIGN && kind != Kind.UNREADABLE) {
      return false;
    }
    return nowSecond < claimSecond + ceilSeconds(lease) + MARGIN_SECONDS;
  }

  /**
   * What is left of the lease: the lease minus the time since the claim, at most the lease and at
   * least 1 ms. The service's whole seconds bound the time since the claim to within a second
   * either way; inside those bounds the writer's {@code wopi_created} and this instance's wall
   * clock give the sub-second part (a skewed clock only moves the estimate within the bounds).
   * Reporting only: expiry never depends on it.
   */
  Duration remaining() {
    long seconds = nowSecond - claimSecond;
    Duration elapsed = Duration.ofSeconds(seconds);
    if (created != null && localNow != null) {
      Duration fine = Duration.between(created, localNow);
      Duration low = Duration.ofSeconds(seconds - 1);
      Duration high = Duration.ofSeconds(seconds + 1);
      elapsed = fine.compareTo(low) < 0 ? low : fine.compareTo(high) > 0 ? high : fine;
    }
    Duration left = elapsed.isNegative() ? lease : lease.minus(elapsed);
    return left.compareTo(ONE_MILLI) < 0 ? ONE_MILLI : min(left, lease);
  }

  long fencingToken() {
    return token(epoch, sequence);
  }

  static long token(long epochSecond, long sequence) {
    return (epochSecond << TOKEN_SHIFT) + sequence;
  }

  /**
   * Whether the blob may be deleted now without risking a repeated fencing token: the service's
   * clock has left the second the blob was created in, so a blob created after the delete has a
   * later epoch.
   */
  boolean deletable() {
    return nowSecond > epoch;
  }

  /** The live claim as the SPI's record. */
  LeaseRecord record() {
    return new LeaseRecord(owner, data, remaining(), fencingToken());
  }

  static long ceilSeconds(Duration d) {
    long s = d.getSeconds();
    return d.getNano() > 0 ? s + 1 : s;
  }
}
