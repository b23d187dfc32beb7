package io.hostloom.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.hostloom.etcd.ViewEntries.Decision;
import io.hostloom.etcd.ViewEntries.Snapshot;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.PermitLeases;
import java.util.List;
import java.util.Optional;

/**
 * The {@link PermitLeases} view of an {@link EtcdLockBackend} for semaphores of {@code permits}
 * permits: one entry key per permit holder under the semaphore's view key (role {@code p}), each on
 * its own etcd lease. An acquire reads the key and commits the grant guarded by the guard (see
 * {@link ViewEntries}): the owner's live entry moves to the new lease and keeps its token; else,
 * with fewer than {@code permits} live entries all granted by a view of this count, a new entry
 * takes the next token whose remainder modulo {@code permits} is the lowest slot no live entry has;
 * else refused with the entry that expires first.
 */
final class EtcdPermitView extends EntryView {
  static final byte PERMIT = 'p';

  private final int permits;

  EtcdPermitView(ViewEntries entries, EtcdKeyLayout layout, int permits) {
    super(entries, layout, EtcdKeyLayout.SEMAPHORE, "permit", PERMIT, PERMIT);
    this.permits = permits;
  }

  @Override
  Decision<AcquireOutcome> acquire(Snapshot s, ByteSequence owner, String data) {
    Optional<KeyValue> mine = s.entry(PERMIT, owner);
    if (mine.isPresent()) {
      return refresh(mine.get());
    }
    List<KeyValue> live = s.entries(PERMIT);
    boolean[] used = new boolean[permits];
    boolean mismatch = false;
    for (KeyValue e : live) {
      RecordCodec.Entry entry = RecordCodec.entryOf(e);
      mismatch |= entry.permits() != permits;
      if (!mismatch) {
        used[Math.floorMod(entry.token(), permits)] = true;
      }
    }
    if (mismatch || live.size() >= permits) {
      return refuse(s, live);
    }
    int slot = 0;
    while (used[slot]) {
      slot++;
    }
    long base = s.nextToken();
    long token = base + Math.floorMod(slot - base, (long) permits);
    return grant(s, PERMIT, owner, token, permits, data);
  }
}
