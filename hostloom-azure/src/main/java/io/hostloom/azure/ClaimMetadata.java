package io.hostloom.azure;

import io.hostloom.locking.spi.LosslessUtf8;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The blob-metadata layout of a claim, shared with .NET WopiHost's {@code AzureLockProvider}.
 *
 * <p>.NET reads and writes {@code wopi_lock_id}, {@code wopi_lease_id} and {@code wopi_created} and
 * copies every other entry when it rewrites metadata. Our own fields live under {@code hl_} names.
 * {@code hl_created} repeats {@code wopi_created}: when a .NET instance rewrites the claim
 * (RefreshLock, UnlockAndRelock) it changes {@code wopi_created} but copies {@code hl_created}, so
 * a mismatch tells us the {@code hl_} fields no longer describe the claim.
 *
 * <p>Values travel as HTTP headers: Azure accepts printable ASCII without leading or trailing
 * spaces. {@link #encode} stores such a value as is and anything else (empty, non-ASCII, control
 * characters, edge spaces, or a value starting with the marker {@code ~}) as {@code ~} + Base64 of
 * its UTF-8 bytes ({@link LosslessUtf8}, so lone surrogates survive too); it is used for our own
 * fields.
 *
 * <p>{@code wopi_lock_id} carries no marker: a .NET instance reads it as the lock id. Data that is
 * printable ASCII without edge spaces (every lock id a WOPI client can send over HTTP, including
 * one that starts with {@code ~}) is stored there as is. Other data is stored exactly in {@code
 * hl_data} ({@code ~} + Base64), and {@code wopi_lock_id} holds what .NET instances should see: the
 * data without its edge spaces (what an HTTP server hands a .NET host for such a header), or, when
 * even that is not plain, the encoded form.
 */
final class ClaimMetadata {
  static final String LOCK_ID = "wopi_lock_id";
  static final String LEASE_ID = "wopi_lease_id";
  static final String CREATED = "wopi_created";
  static final String FORMAT = "hl_v";
  static final String BOUND_CREATED = "hl_created";
  static final String OWNER = "hl_owner";
  static final String LEASE_MILLIS = "hl_lease_ms";
  static final String EPOCH = "hl_epoch";
  static final String SEQUENCE = "hl_seq";
  static final String FREE = "hl_free";
  static final String DATA = "hl_data";

  static final String FORMAT_VERSION = "1";

  /** Azure's limit on all metadata names and values of one blob, together. */
  static final int MAX_METADATA_BYTES = 8192;

  /** {@code wopi_created} of a released claim: so old that .NET instances see it as expired. */
  static final String RELEASED_CREATED = "0001-01-01T00:00:00.0000000+00:00";

  private static final char MARKER = '~';

  /** .NET's round-trip ("O") format of a DateTimeOffset: 7 fraction digits, offset as +hh:mm. */
  private static final DateTimeFormatter DOTNET_ROUND_TRIP =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSxxx");

  private ClaimMetadata() {}

  /** {@code value} as a metadata value that round-trips exactly (see the class comment). */
  static String encode(String value) {
    if (isPlain(value)) {
      return value;
    }
    return MARKER + Base64.getEncoder().encodeToString(LosslessUtf8.encode(value));
  }

  /**
   * The string {@link #encode} turned into {@code stored}; a value without the marker is itself.
   *
   * @throws IllegalArgumentException when the marker is followed by invalid Base64
   */
  static String decode(String stored) {
    if (stored.isEmpty() || stored.charAt(0) != MARKER) {
      return stored;
    }
    return LosslessUtf8.decode(Base64.getDecoder().decode(stored.substring(1)));
  }

  /** {@code value} in Base64 form whether or not it is plain, for {@code hl_data}. */
  private static String forceEncode(String value) {
    return MARKER + Base64.getEncoder().encodeToString(LosslessUtf8.encode(value));
  }

  /**
   * The data of our claim: {@code hl_data} when present, else {@code wopi_lock_id} exactly as
   * stored (never decoded: it carries no marker).
   *
   * @throws IllegalArgumentException when {@code hl_data} holds invalid Base64
   */
  static String dataOf(String lockId, String storedData) {
    return storedData != null ? decode(storedData) : lockId;
  }

  private static boolean isPlain(String value) {
    return isHeaderSafe(value) && value.charAt(0) != MARKER;
  }

  /** Whether Azure carries {@code value} as a metadata value unchanged. */
  private static boolean isHeaderSafe(String value) {
    int n = value.length();
    if (n == 0 || value.charAt(0) == ' ' || value.charAt(n - 1) == ' ') {
      return false;
    }
    for (int i = 0; i < n; i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7E) {
        return false;
      }
    }
    return true;
  }

  /** {@code instant} in .NET's round-trip format, offset {@code +00:00}. */
  static String formatCreated(Instant instant) {
    return DOTNET_ROUND_TRIP.format(instant.atOffset(ZoneOffset.UTC));
  }

  /**
   * Parses a {@code wopi_created} value as .NET's {@code DateTimeOffset.Parse(..., RoundtripKind)}
   * would for the forms it writes: ISO-8601 with an offset or {@code Z} and up to 9 fraction
   * digits, or without an offset (then UTC).
   */
  static Optional<Instant> parseCreated(String value) {
    if (value == null) {
      return Optional.empty();
    }
    String v = value.trim();
    try {
      return Optional.of(
          OffsetDateTime.parse(v, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant());
    } catch (DateTimeParseException withOffset) {
      try {
        return Optional.of(
            LocalDateTime.parse(v, DateTimeFormatter.ISO_LOCAL_DATE_TIME)
                .toInstant(ZoneOffset.UTC));
      } catch (DateTimeParseException withoutOffset) {
        return Optional.empty();
      }
    }
  }

  /**
   * A held claim. {@code epoch} is null for a claim that creates its blob: the blob's first
   * Last-Modified is its epoch then (see {@link BlobState#epoch()}).
   */
  static Map<String, String> held(
      String owner,
      String data,
      long leaseMillis,
      String leaseId,
      Instant created,
      Long epoch,
      long sequence) {
    String createdText = formatCreated(created);
    Map<String, String> m = new LinkedHashMap<>();
    boolean exact = isHeaderSafe(data);
    String dotnetView = exact ? data : isHeaderSafe(data.strip()) ? data.strip() : encode(data);
    m.put(LOCK_ID, dotnetView);
    m.put(LEASE_ID, leaseId);
    m.put(CREATED, createdText);
    m.put(FORMAT, FORMAT_VERSION);
    m.put(BOUND_CREATED, createdText);
    m.put(OWNER, encode(owner));
    if (!exact) {
      m.put(DATA, forceEncode(data));
    }
    m.put(LEASE_MILLIS, Long.toString(leaseMillis));
    if (epoch != null) {
      m.put(EPOCH, Long.toString(epoch));
    }
    m.put(SEQUENCE, Long.toString(sequence));
    return m;
  }

  /**
   * A released claim kept as a tombstone (see {@link AzureBlobLockBackend}: a blob may not be
   * deleted in the second it was created). .NET instances see an expired lock.
   */
  static Map<String, String> released(String leaseId, long epoch, long sequence) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(LOCK_ID, encode(""));
    m.put(LEASE_ID, leaseId);
    m.put(CREATED, RELEASED_CREATED);
    m.put(FORMAT, FORMAT_VERSION);
    m.put(BOUND_CREATED, RELEASED_CREATED);
    m.put(FREE, "1");
    m.put(EPOCH, Long.toString(epoch));
    m.put(SEQUENCE, Long.toString(sequence));
    return m;
  }

  /** The bytes Azure counts against {@link #MAX_METADATA_BYTES}: every name and value. */
  static int size(Map<String, String> metadata) {
    int n = 0;
    for (Map.Entry<String, String> e : metadata.entrySet()) {
      n += e.getKey().length() + e.getValue().length(); // all ASCII after encode()
    }
    return n;
  }

  /**
   * Rejects a claim Azure would refuse (400 MetadataTooLarge; Azurite would accept it).
   *
   * @throws IllegalArgumentException naming the size and the limit, never the values
   */
  static Map<String, String> requireFits(Map<String, String> metadata) {
    int size = size(metadata);
    if (size > MAX_METADATA_BYTES) {
      throw new IllegalArgumentException(
          "owner and data must fit Azure's "
              + MAX_METADATA_BYTES
              + "-byte blob metadata limit once encoded (printable ASCII costs 1 byte a"
              + " character, anything else about 4/3 of its UTF-8 bytes) but needed "
              + size
              + " bytes");
    }
    return metadata;
  }
}
