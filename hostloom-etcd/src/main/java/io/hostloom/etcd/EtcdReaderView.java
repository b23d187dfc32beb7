package io.hostloom.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.hostloom.etcd.ViewEntries.Decision;
import io.hostloom.etcd.ViewEntries.Snapshot;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ReadWriteLeases;
import java.util.List;
import java.util.Optional;

/**
 * The read view of an {@link EtcdLockBackend}'s {@link ReadWriteLeases}: one entry key per reader
 * (role {@code r}) under the lock's view key. An acquire refreshes the owner's live reader entry;
 * else, with no writer entry (holding or waiting: writer preference) and fewer than {@code
 * maxReaders} readers, adds one with the key's next token; else refused with the writer entry, or
 * with the reader entry that expires first.
 */
final class EtcdReaderView extends EntryView {
  static final byte READER = 'r';

  private final int maxReaders;

  EtcdReaderView(ViewEntries entries, EtcdKeyLayout layout, int maxReaders) {
    super(entries, layout, EtcdKeyLayout.READ_WRITE, "read", READER, READER);
    this.maxReaders = maxReaders;
  }

  @Override
  Decision<AcquireOutcome> acquire(Snapshot s, ByteSequence owner, String data) {
    Optional<KeyValue> mine = s.entry(READER, owner);
    if (mine.isPresent()) {
      return refresh(mine.get());
    }
    List<KeyValue> writer = s.entries(EtcdWriterView.HOLDING, EtcdWriterView.WAITING);
    if (!writer.isEmpty()) {
      return refuse(s, writer);
    }
    List<KeyValue> readers = s.entries(READER);
    if (readers.size() >= maxReaders) {
      return refuse(s, readers);
    }
    return grant(s, READER, owner, s.nextToken(), 0, data);
  }
}
