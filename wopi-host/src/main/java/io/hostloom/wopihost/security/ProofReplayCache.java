package io.hostloom.wopihost.security;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The proofs this instance has accepted, each until its timestamp is too old to pass {@link
 * ProofKeys} anyway, so one captured, validly signed request cannot be sent again (for another
 * operation on the same URL, say: {@code LOCK}, {@code UNLOCK} and PutRelativeFile share one URL)
 * within its validity window.
 *
 * <p>A proof is identified by what it signs (token, URL, timestamp), a SHA-256 of {@link
 * ProofKeys#proofData}, so re-encoding the signature or adding {@code X-WOPI-ProofOld} does not
 * make it new. Only proofs that verified are recorded, so only the WOPI client itself can fill the
 * cache; it holds at most {@link #MAX_ENTRIES} (about 100 bytes each), and when that many proofs
 * are alive new ones are refused rather than old ones forgotten. Two requests with one token on one
 * URL within one tick of the client's clock look the same and the second is refused (a WOPI client
 * retries a proof failure with a new timestamp). The cache is per instance: instances behind one
 * load balancer do not see each other's proofs.
 */
public final class ProofReplayCache {
  /** The most proofs remembered at once. */
  public static final int MAX_ENTRIES = 1_000_000;

  private final Map<ByteBuffer, Instant> seen = new HashMap<>();
  private final int maxEntries;
  private Instant nextPurge = Instant.MIN;

  public ProofReplayCache() {
    this(MAX_ENTRIES);
  }

  ProofReplayCache(int maxEntries) {
    this.maxEntries = maxEntries;
  }

  /**
   * Records a verified proof; whether it was new (false: seen before within its validity window, or
   * the cache is full of live proofs).
   *
   * @param ticks the proof's {@code X-WOPI-TimeStamp}
   * @param now the host's clock
   */
  public synchronized boolean firstUse(String accessToken, String url, long ticks, Instant now) {
    purgeExpired(now);
    ByteBuffer key = ByteBuffer.wrap(digest(ProofKeys.proofData(accessToken, url, ticks)));
    Instant until = ProofKeys.fromTicks(ticks).plus(ProofKeys.MAX_AGE);
    Instant known = seen.get(key);
    if (known != null && known.isAfter(now)) {
      return false;
    }
    if (known == null && seen.size() >= maxEntries) {
      return false;
    }
    seen.put(key, until);
    return true;
  }

  /** Drops expired proofs, at most once a second (so each call stays cheap on average). */
  private void purgeExpired(Instant now) {
    if (now.isBefore(nextPurge) && seen.size() < maxEntries) {
      return;
    }
    nextPurge = now.plus(Duration.ofSeconds(1));
    for (Iterator<Instant> it = seen.values().iterator(); it.hasNext(); ) {
      if (!it.next().isAfter(now)) {
        it.remove();
      }
    }
  }

  private static byte[] digest(byte[] data) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(data);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }
}
