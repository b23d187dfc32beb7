package io.hostloom.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.op.Op;
import io.hostloom.etcd.ViewEntries.Decision;
import io.hostloom.etcd.ViewEntries.Snapshot;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ReadWriteLeases;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The write view of an {@link EtcdLockBackend}'s {@link ReadWriteLeases}: the one writer entry of a
 * lock's view key, holding (role {@code h}) or waiting (role {@code w}, token 0). An acquire
 * refreshes the owner's holding entry; another owner's writer entry refuses it; with no readers the
 * owner's entry becomes holding with the key's next token; with readers it becomes (or stays)
 * waiting on the new lease, which refuses new readers, and the answer is the reader entry that
 * expires first. Only a new waiting entry rewrites the guard; one that stays waiting is moved under
 * the condition that it is as read, so a waiting writer's retries do not fail the readers' commits.
 * Extend moves only a holding entry; release removes a holding or a waiting one.
 */
final class EtcdWriterView extends EntryView {
  static final byte HOLDING = 'h';
  static final byte WAITING = 'w';

  EtcdWriterView(ViewEntries entries, EtcdKeyLayout layout) {
    super(entries, layout, EtcdKeyLayout.READ_WRITE, "write", HOLDING, HOLDING, WAITING);
  }

  @Override
  Decision<AcquireOutcome> acquire(Snapshot s, ByteSequence owner, String data) {
    Optional<KeyValue> holding = s.entry(HOLDING, owner);
    if (holding.isPresent()) {
      return refresh(holding.get());
    }
    Optional<KeyValue> waiting = s.entry(WAITING, owner);
    ByteSequence w = s.keys().entry(WAITING, owner);
    List<KeyValue> others =
        s.entries(HOLDING, WAITING).stream().filter(e -> !e.getKey().equals(w)).toList();
    if (!others.isEmpty()) {
      return refuse(s, others);
    }
    List<KeyValue> readers = s.entries(EtcdReaderView.READER);
    if (!readers.isEmpty() && waiting.isPresent()) {
      // still waiting: the entry moves to the new lease, and the guard stays, as readers' decisions
      // since the entry was written saw it (rewriting it would only fail their commits)
      KeyValue entry = waiting.get();
      return new Decision<>(
          ViewEntries.same(entry),
          id -> List.of(ViewEntries.move(entry, id)),
          () -> held(s, readers));
    }
    if (!readers.isEmpty()) {
      // the guard is rewritten: a reader decided before this entry must not be granted after it
      ByteSequence value = RecordCodec.entry(0, 0, data);
      return new Decision<>(
          List.of(s.unchanged()),
          id -> List.of(ViewEntries.putEntry(w, value, id), s.touch()),
          () -> held(s, readers));
    }
    long token = s.nextToken();
    Decision<AcquireOutcome> grant = grant(s, HOLDING, owner, token, 0, data);
    if (waiting.isEmpty()) {
      return grant;
    }
    return new Decision<>(
        grant.conditions(),
        id -> {
          List<Op> writes = new ArrayList<>(grant.writes().apply(id));
          writes.add(ViewEntries.deleteEntry(w));
          return writes;
        },
        grant.answer());
  }
}
