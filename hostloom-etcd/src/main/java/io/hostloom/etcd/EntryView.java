package io.hostloom.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.op.Op;
import io.hostloom.etcd.EtcdKeyLayout.ViewKeys;
import io.hostloom.etcd.ViewEntries.Decision;
import io.hostloom.etcd.ViewEntries.Snapshot;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.locking.spi.support.BackendArguments;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A native view over {@link ViewEntries}: a {@link LockBackend} whose keys are view keys and whose
 * records are an owner's entries in some roles. What all views share is here: extend moves the
 * owner's entry of the extendable role to a new lease, release removes the owner's entry of its
 * roles, read answers the entry of its roles that expires first, replace is not part of a view
 * ({@code OTHER}). Each view decides its own acquire.
 */
abstract class EntryView implements LockBackend {
  private static final BackendArguments ARGS = BackendArguments.unbounded();

  final ViewEntries entries;
  private final EtcdKeyLayout layout;
  private final byte kind;
  private final String view;
  private final byte extendable;
  private final byte[] roles;

  /**
   * @param kind the view key's kind in the layout
   * @param view the view's name in failures ("permit", "read", "write")
   * @param extendable the role extend moves
   * @param roles the roles release removes and read answers
   */
  EntryView(
      ViewEntries entries,
      EtcdKeyLayout layout,
      byte kind,
      String view,
      byte extendable,
      byte... roles) {
    this.entries = entries;
    this.layout = layout;
    this.kind = kind;
    this.view = view;
    this.extendable = extendable;
    this.roles = roles.clone();
  }

  /** What this view decides for an acquire of {@code owner} on a snapshot. */
  abstract Decision<AcquireOutcome> acquire(Snapshot s, ByteSequence owner, String data);

  @Override
  public final CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    ARGS.acquire(key, owner, data, lease);
    ByteSequence o = RecordCodec.owner(owner);
    return entries.decide(
        view + " acquire", keys(key), RecordCodec.ttlSeconds(lease), s -> acquire(s, o, data));
  }

  @Override
  public final CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    ARGS.extend(key, owner, lease);
    return entries.extend(
        view + " extend",
        keys(key),
        extendable,
        RecordCodec.owner(owner),
        RecordCodec.ttlSeconds(lease));
  }

  @Override
  public final CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    ARGS.release(key, owner);
    ViewKeys k = keys(key);
    ByteSequence o = RecordCodec.owner(owner);
    List<ByteSequence> mine = new ArrayList<>();
    for (byte r : roles) {
      mine.add(k.entry(r, o));
    }
    return entries.release(view + " release", k, mine);
  }

  @Override
  public final CompletableFuture<Optional<LeaseRecord>> read(String key) {
    ARGS.read(key);
    return entries.read(view + " read", keys(key), s -> s.entries(roles));
  }

  /** Not part of a view: fails {@code OTHER}. */
  @Override
  public final CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    return CompletableFuture.failedFuture(
        LockBackendException.other("etcd " + view + " view: replace is not part of a view", null));
  }

  @Override
  public final String name() {
    return "etcd";
  }

  private ViewKeys keys(String key) {
    return layout.view(kind, key);
  }

  /** The owner's live entry, moved to the operation's lease: granted with the token it has. */
  static Decision<AcquireOutcome> refresh(KeyValue mine) {
    long token = RecordCodec.entryOf(mine).token();
    return new Decision<>(
        ViewEntries.same(mine),
        id -> List.of(ViewEntries.move(mine, id)),
        () -> CompletableFuture.completedFuture(AcquireOutcome.granted(token)));
  }

  /** Refused, with the record of the entry among {@code among} that expires first. */
  Decision<AcquireOutcome> refuse(Snapshot s, List<KeyValue> among) {
    return Decision.answer(() -> held(s, among));
  }

  /** Refused with the record of the entry among {@code among} that expires first. */
  CompletableFuture<AcquireOutcome> held(Snapshot s, List<KeyValue> among) {
    return entries
        .firstToExpire(s, among)
        .thenApply(
            h ->
                AcquireOutcome.held(
                    h.orElseThrow(
                        () -> LockBackendException.other("etcd refused without an entry", null))));
  }

  /** A new entry of {@code role} for {@code owner} with {@code token}: granted once committed. */
  static Decision<AcquireOutcome> grant(
      Snapshot s, byte role, ByteSequence owner, long token, int permits, String data) {
    ByteSequence entry = s.keys().entry(role, owner);
    ByteSequence value = RecordCodec.entry(token, permits, data);
    return new Decision<>(
        List.of(s.unchanged()),
        id -> {
          List<Op> writes = new ArrayList<>();
          writes.add(ViewEntries.putEntry(entry, value, id));
          writes.addAll(List.of(s.granted(token)));
          return writes;
        },
        () -> CompletableFuture.completedFuture(AcquireOutcome.granted(token)));
  }

  @Override
  public String toString() {
    return "EtcdLockBackend." + view + "View";
  }
}
