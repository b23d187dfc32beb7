package io.hostloom.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Lease;
import io.etcd.jetcd.kv.DeleteResponse;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.PutResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.LeaseOption;
import io.etcd.jetcd.options.PutOption;
import io.hostloom.etcd.EtcdKeyLayout.ViewKeys;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.support.KeyTurns;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * The entries of the native views' keys in etcd ({@link EtcdKeyLayout} names them, {@link
 * RecordCodec} encodes them), and the one way a view decides: read everything under the view key in
 * one range request, decide on that snapshot, and commit the decision's writes in one transaction
 * that also compares the guard's {@code mod_revision} with the snapshot's. Every change that can
 * turn a decision (a grant, a waiting writer, a release) rewrites the guard, so a commit means
 * nothing changed in between but expiries and extensions, which never make a grant wrong; a failed
 * compare reads and decides again, at most {@value #MAX_ATTEMPTS} times, then fails {@code
 * UNAVAILABLE} (nothing was written). The changes of one view key by this instance take turns
 * ({@link KeyTurns}): its callers never fail each other's compares, only other instances can (each
 * call is bounded by the command timeout once its turn came).
 *
 * <p>Each entry is on an etcd lease of its own, granted by the operation that wrote it once it
 * decided to write (after the read; a refusal grants none): etcd's clock decides its expiry, and
 * the lease an entry leaves (moved to a new lease, or deleted) is revoked in the background.
 */
final class ViewEntries {
  // as many as ZooKeeper's views allow: 8 ran out under six contending callers on a loaded
  // machine (CI); the command timeout still bounds the operation
  static final int MAX_ATTEMPTS = 64;

  // as for the lock's read: a lease gone by the time its TTL is asked for may have been moved
  private static final int MAX_REREADS = 3;

  private static final GetOption UNDER = GetOption.builder().isPrefix(true).build();

  private final KeyTurns turns = new KeyTurns();
  private final KV kv;
  private final Lease leases;
  private final TxnRunner runner;

  ViewEntries(KV kv, Lease leases, TxnRunner runner) {
    this.kv = kv;
    this.leases = leases;
    this.runner = runner;
  }

  /**
   * What one range read of a view key saw: its guard and counter (null when none yet) and its
   * entries.
   */
  record Snapshot(
      ViewKeys keys, long revision, KeyValue guard, KeyValue counter, List<KeyValue> all) {
    static Snapshot of(ViewKeys keys, GetResponse r) {
      KeyValue guard = null;
      KeyValue counter = null;
      List<KeyValue> entries = new ArrayList<>();
      for (KeyValue e : r.getKvs()) {
        byte role = keys.roleOf(e.getKey());
        if (role == EtcdKeyLayout.GUARD) {
          guard = e;
        } else if (role == EtcdKeyLayout.COUNTER) {
          counter = e;
        } else {
          entries.add(e);
        }
      }
      return new Snapshot(keys, r.getHeader().getRevision(), guard, counter, List.copyOf(entries));
    }

    /** The entries of the given roles. */
    List<KeyValue> entries(byte... roles) {
      List<KeyValue> out = new ArrayList<>();
      for (KeyValue e : all) {
        byte role = keys.roleOf(e.getKey());
        for (byte r : roles) {
          if (r == role) {
            out.add(e);
          }
        }
      }
      return out;
    }

    /** The entry of {@code owner} in {@code role}, if it is live. */
    Optional<KeyValue> entry(byte role, ByteSequence owner) {
      ByteSequence k = keys.entry(role, owner);
      return all.stream().filter(e -> e.getKey().equals(k)).findFirst();
    }

    /** The condition that the guard is as this snapshot saw it (absent: still absent). */
    Cmp unchanged() {
      return guard == null
          ? new Cmp(keys.guard(), Cmp.Op.EQUAL, CmpTarget.createRevision(0))
          : new Cmp(keys.guard(), Cmp.Op.EQUAL, CmpTarget.modRevision(guard.getModRevision()));
    }

    /**
     * The smallest token a new grant may take: past the counter and every live entry's token; a new
     * key's counter starts past the read's revision, so a key deleted by hand and used again does
     * not start from 1 again.
     */
    long nextToken() {
      long top = counter == null ? revision : RecordCodec.counterOf(counter);
      for (KeyValue e : all) {
        top = Math.max(top, RecordCodec.entryOf(e).token());
      }
      return top + 1;
    }

    /**
     * The writes of a grant of {@code token}: the counter, and the guard, so that decisions made
     * before it fail.
     */
    Op[] granted(long token) {
      return new Op[] {
        Op.put(keys.counter(), RecordCodec.counter(token), PutOption.DEFAULT), touch()
      };
    }

    /** The write that rewrites the guard, so that decisions made before it fail. */
    Op touch() {
      return touchGuard(keys);
    }
  }

  /**
   * What a view decides on a snapshot: the writes, given the lease id of the entry they put (none
   * for a refusal that changes nothing), the conditions they are committed under, and the answer
   * once committed.
   */
  record Decision<T>(
      List<Cmp> conditions, LongFunction<List<Op>> writes, Supplier<CompletableFuture<T>> answer) {
    /** An answer that writes nothing. */
    static <T> Decision<T> answer(Supplier<CompletableFuture<T>> answer) {
      return new Decision<>(List.of(), null, answer);
    }
  }

  /** How a view decides on a snapshot. */
  @FunctionalInterface
  interface Decide<T> {
    Decision<T> on(Snapshot snapshot);
  }

  /** A decision and the revision its commit (or its snapshot, when it wrote nothing) answered. */
  private record Decided<T>(long revision, Decision<T> decision, TxnResponse committed) {}

  /**
   * The etcd lease of one operation's entry, granted when a decision first writes (a refusal grants
   * none), and kept for the attempts after a failed compare.
   */
  private final class OperationLease {
    private final String operation;
    private final long ttl;
    private CompletableFuture<Long> granted; // attempts run one after another

    OperationLease(String operation, long ttl) {
      this.operation = operation;
      this.ttl = ttl;
    }

    CompletableFuture<Long> id() {
      if (granted == null) {
        granted =
            TxnRunner.call(() -> leases.grant(ttl))
                .handle(
                    (g, e) -> {
                      if (e != null) { // no write was sent: the key is unchanged
                        throw new CompletionException(EtcdFailures.unchanged(operation, e));
                      }
                      return g.getID();
                    });
      }
      return granted;
    }

    /** Revokes the lease when one was granted and the decision that came last did not use it. */
    void unused() {
      // called once the decisions are made, so a granted lease's future is complete
      if (granted != null && granted.isDone() && !granted.isCompletedExceptionally()) {
        runner.revokeLater(granted.join());
      }
    }
  }

  /**
   * Reads, decides and commits (again on a failed compare) as the class describes; a decision that
   * writes an entry first grants its lease of {@code ttl} seconds.
   */
  <T> CompletableFuture<T> decide(String operation, ViewKeys keys, long ttl, Decide<T> decide) {
    return turns.run(keys.id(), () -> decideNow(operation, keys, ttl, decide));
  }

  private <T> CompletableFuture<T> decideNow(
      String operation, ViewKeys keys, long ttl, Decide<T> decide) {
    OperationLease lease = new OperationLease(operation, ttl);
    return runner.runLeased(
        operation,
        0,
        none -> attempt(operation, keys, lease, decide, 1),
        Decided::revision,
        (none, d) -> {
          if (d.committed() == null) {
            lease.unused();
          } else {
            revokeLeft(d.committed(), lease.id().join());
          }
          return d.decision().answer().get();
        });
  }

  private <T> CompletableFuture<Decided<T>> attempt(
      String operation, ViewKeys keys, OperationLease lease, Decide<T> decide, int attempt) {
    return snapshot(operation, keys)
        .thenCompose(
            s -> {
              Decision<T> d = decide.on(s);
              if (d.writes() == null) {
                return CompletableFuture.completedFuture(new Decided<>(s.revision(), d, null));
              }
              return lease
                  .id()
                  .thenCompose(
                      id ->
                          TxnRunner.call(
                              () ->
                                  kv.txn()
                                      .If(d.conditions().toArray(Cmp[]::new))
                                      .Then(d.writes().apply(id).toArray(Op[]::new))
                                      .commit()))
                  .thenCompose(
                      r -> {
                        if (r.isSucceeded()) {
                          return CompletableFuture.completedFuture(
                              new Decided<>(r.getHeader().getRevision(), d, r));
                        }
                        if (attempt >= MAX_ATTEMPTS) {
                          lease.unused();
                          return CompletableFuture.failedFuture(
                              LockBackendException.unavailable(
                                  "etcd "
                                      + operation
                                      + ": the key changed under each of "
                                      + MAX_ATTEMPTS
                                      + " attempts (nothing written)",
                                  null));
                        }
                        return attempt(operation, keys, lease, decide, attempt + 1);
                      });
            });
  }

  /** One range read of everything under the view key; its failure changed nothing. */
  private CompletableFuture<Snapshot> snapshot(String operation, ViewKeys keys) {
    return TxnRunner.call(() -> kv.get(keys.all(), UNDER))
        .handle(
            (r, e) -> {
              if (e != null) {
                throw new CompletionException(EtcdFailures.unchanged(operation, e));
              }
              return Snapshot.of(keys, r);
            });
  }

  /** The put of {@code entryKey} with {@code value} on {@code leaseId}. */
  static Op putEntry(ByteSequence entryKey, ByteSequence value, long leaseId) {
    return Op.put(entryKey, value, PutOption.builder().withLeaseId(leaseId).withPrevKV().build());
  }

  /**
   * The condition that {@code entry} is as the snapshot saw it (not moved, released or granted
   * again since).
   */
  static List<Cmp> same(KeyValue entry) {
    return List.of(
        new Cmp(entry.getKey(), Cmp.Op.EQUAL, CmpTarget.modRevision(entry.getModRevision())));
  }

  /** The put that moves {@code entry} to {@code leaseId}, value kept. */
  static Op move(KeyValue entry, long leaseId) {
    return putEntry(entry.getKey(), entry.getValue(), leaseId);
  }

  /** The delete of an entry, answering it (and its lease). */
  static Op deleteEntry(ByteSequence entryKey) {
    return Op.delete(entryKey, DeleteOption.builder().withPrevKV(true).build());
  }

  private static Op touchGuard(ViewKeys keys) {
    return Op.put(keys.guard(), ByteSequence.EMPTY, PutOption.DEFAULT);
  }

  private static Cmp exists(ByteSequence key) {
    return new Cmp(key, Cmp.Op.GREATER, CmpTarget.createRevision(0));
  }

  /**
   * Extends the live entry of {@code owner} in {@code role}: a read of the entry, then a new lease
   * of {@code ttl} seconds and a transaction that moves the entry onto it, value kept, if it is
   * still the entry read; absent when there is none (an entry key names its owner, so there is
   * never another owner's record to answer).
   */
  CompletableFuture<ExtendOutcome> extend(
      String operation, ViewKeys keys, byte role, ByteSequence owner, long ttl) {
    return decide(
        operation,
        keys,
        ttl,
        s ->
            s.entry(role, owner)
                .map(
                    mine ->
                        new Decision<>(
                            same(mine),
                            id -> List.of(move(mine, id)),
                            () -> CompletableFuture.completedFuture(ExtendOutcome.succeeded())))
                .orElseGet(
                    () ->
                        Decision.answer(
                            () -> CompletableFuture.completedFuture(ExtendOutcome.absent()))));
  }

  /**
   * Removes the first of {@code entryKeys} that exists, and rewrites the guard (a decision made
   * before the release must not commit after it), in one transaction; absent when none exists.
   */
  CompletableFuture<ReleaseOutcome> release(
      String operation, ViewKeys keys, List<ByteSequence> entryKeys) {
    return turns.run(keys.id(), () -> releaseNow(operation, keys, entryKeys));
  }

  private CompletableFuture<ReleaseOutcome> releaseNow(
      String operation, ViewKeys keys, List<ByteSequence> entryKeys) {
    return runner.run(
        operation,
        0,
        none ->
            kv.txn()
                .If(cmps(entryKeys.get(0)))
                .Then(removal(keys, entryKeys, 0))
                .Else(entryKeys.size() == 1 ? new Op[0] : new Op[] {nested(keys, entryKeys, 1)})
                .commit(),
        (none, r) -> {
          TxnResponse done = r;
          while (!done.isSucceeded() && !done.getTxnResponses().isEmpty()) {
            done = done.getTxnResponses().get(0);
          }
          if (!done.isSucceeded()) {
            return CompletableFuture.completedFuture(ReleaseOutcome.absent());
          }
          revokeLeft(done, 0);
          return CompletableFuture.completedFuture(ReleaseOutcome.succeeded());
        });
  }

  private static Cmp[] cmps(ByteSequence entryKey) {
    return new Cmp[] {exists(entryKey)};
  }

  private static Op[] removal(ViewKeys keys, List<ByteSequence> entryKeys, int i) {
    return new Op[] {deleteEntry(entryKeys.get(i)), touchGuard(keys)};
  }

  private static Op nested(ViewKeys keys, List<ByteSequence> entryKeys, int i) {
    Op[] otherwise =
        i + 1 == entryKeys.size() ? new Op[0] : new Op[] {nested(keys, entryKeys, i + 1)};
    return Op.txn(cmps(entryKeys.get(i)), removal(keys, entryKeys, i), otherwise);
  }

  /**
   * The record of the entry among {@code entries} whose lease ends first, as it was at the
   * snapshot: one TTL request per entry, sent together (a lease gone since answers 1 ms left).
   */
  CompletableFuture<Optional<LeaseRecord>> firstToExpire(Snapshot s, List<KeyValue> entries) {
    return ttls(entries).thenApply(t -> first(s, entries, t, false));
  }

  /**
   * The live entry of {@code pick} that expires first, read now; a lease found gone reads again (it
   * may have moved to a new lease), at most {@value #MAX_REREADS} times, then counts as expired.
   */
  CompletableFuture<Optional<LeaseRecord>> read(
      String operation, ViewKeys keys, Function<Snapshot, List<KeyValue>> pick) {
    return runner.runLeased(
        operation,
        0,
        none -> readLive(operation, keys, pick, 0),
        Read::revision,
        (none, r) -> CompletableFuture.completedFuture(r.record()));
  }

  private record Read(long revision, Optional<LeaseRecord> record) {}

  private CompletableFuture<Read> readLive(
      String operation, ViewKeys keys, Function<Snapshot, List<KeyValue>> pick, int reread) {
    return snapshot(operation, keys)
        .thenCompose(
            s -> {
              List<KeyValue> entries = pick.apply(s);
              return ttls(entries)
                  .thenCompose(
                      t -> {
                        boolean gone = t.stream().anyMatch(ttl -> ttl < 0);
                        if (gone && reread < MAX_REREADS) {
                          return readLive(operation, keys, pick, reread + 1);
                        }
                        return CompletableFuture.completedFuture(
                            new Read(s.revision(), first(s, entries, t, true)));
                      });
            });
  }

  private static Optional<LeaseRecord> first(
      Snapshot s, List<KeyValue> entries, List<Long> ttls, boolean liveOnly) {
    int best = -1;
    for (int i = 0; i < entries.size(); i++) {
      if (liveOnly && ttls.get(i) < 0) {
        continue;
      }
      if (best < 0 || ttls.get(i) < ttls.get(best)) {
        best = i;
      }
    }
    if (best < 0) {
      return Optional.empty();
    }
    KeyValue e = entries.get(best);
    return Optional.of(
        RecordCodec.entryRecord(
            s.keys().ownerOf(e.getKey()), RecordCodec.entryOf(e), ttls.get(best)));
  }

  /** The remaining TTL of each entry's lease (-1: gone), asked for all at once. */
  private CompletableFuture<List<Long>> ttls(List<KeyValue> entries) {
    List<CompletableFuture<Long>> asked = new ArrayList<>();
    for (KeyValue e : entries) {
      asked.add(
          TxnRunner.call(() -> leases.timeToLive(e.getLease(), LeaseOption.DEFAULT))
              .thenApply(t -> t.getTTL()));
    }
    return CompletableFuture.allOf(asked.toArray(CompletableFuture[]::new))
        .thenApply(v -> asked.stream().map(CompletableFuture::join).toList());
  }

  /**
   * Revokes the leases a committed transaction's entries left: the previous lease of each entry put
   * (unless it is {@code current}, the same write applied twice) and the lease of each entry
   * deleted. The guard has no lease.
   */
  private void revokeLeft(TxnResponse r, long current) {
    for (PutResponse p : r.getPutResponses()) {
      if (p.hasPrevKv() && p.getPrevKv().getLease() != current) {
        runner.revokeLater(p.getPrevKv().getLease());
      }
    }
    for (DeleteResponse d : r.getDeleteResponses()) {
      d.getPrevKvs().forEach(kv -> runner.revokeLater(kv.getLease()));
    }
  }
}
